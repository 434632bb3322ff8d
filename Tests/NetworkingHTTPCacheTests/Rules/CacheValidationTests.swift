import Foundation
import NetworkingTesting
import Testing

@testable import Networking
@testable import NetworkingHTTP
@testable import NetworkingCore
@testable import NetworkingTLS
@testable import NetworkingURLSession
@testable import NetworkingAuth
@testable import NetworkingResilience
@testable import NetworkingHTTPCache
@testable import NetworkingCookies
@testable import NetworkingObservability
@testable import NetworkingTransfers
import NetworkingTestSupport

/// Conditional requests, 304 selection and the 304 header merge (RFC 9111 §3.2, §4.3), as tables.
@Suite struct CacheValidationTests {
    static func entry(_ fields: HTTPFields) -> HTTPCacheEntry {
        HTTPCacheEntry(
            status: 200, headerFields: fields, body: Data("x".utf8), requestDate: Date(), responseDate: Date())
    }

    static let request = HTTPRequest(url: URL(string: "https://api.test/items")!)

    @Test(
        arguments: [
            (["ETag": "\"v1\""], "\"v1\"", nil),
            (["Last-Modified": "Tue, 14 Nov 2023 12:13:20 GMT"], nil, "Tue, 14 Nov 2023 12:13:20 GMT"),
            (
                ["ETag": "W/\"v2\"", "Last-Modified": "Tue, 14 Nov 2023 12:13:20 GMT"], "W/\"v2\"",
                "Tue, 14 Nov 2023 12:13:20 GMT"
            ),
        ] as [([String: String], String?, String?)])
    func conditionalRequestCarriesTheStoredValidators(
        stored: [String: String], ifNoneMatch: String?, ifModifiedSince: String?
    ) throws {
        let conditional = try #require(
            CacheValidation.conditionalRequest(Self.request, for: Self.entry(HTTPFields(stored))))
        #expect(conditional.headerFields["If-None-Match"] == ifNoneMatch)
        #expect(conditional.headerFields["If-Modified-Since"] == ifModifiedSince)
        #expect(conditional.url == Self.request.url)
    }

    @Test func noValidatorMeansNoConditionalRequest() {
        #expect(
            CacheValidation.conditionalRequest(Self.request, for: Self.entry(["Cache-Control": "max-age=1"])) == nil)
        #expect(CacheValidation.conditionalRequest(Self.request, for: Self.entry(["ETag": " "])) == nil)
    }

    @Test(arguments: ["If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range", "Range"])
    func aCallerConditionalRequestIsRecognized(name: String) {
        var request = Self.request
        #expect(!CacheValidation.isCallerConditional(request))
        request.headerFields[HTTPField.Name(name)] = "x"
        #expect(CacheValidation.isCallerConditional(request))
    }

    @Test(
        arguments: [
            ("\"v1\"", "\"v1\"", true), ("\"v1\"", "W/\"v1\"", true), ("W/\"v1\"", "\"v1\"", true),
            ("\"v1\"", "\"v2\"", false), ("W/\"v1\"", "W/\"v2\"", false), (nil, "\"v1\"", false),
            ("\"v1\"", nil, true), ("\"v\u{37E}\"", "\"v;\"", false), ("\"\u{212A}\"", "\"K\"", false),
        ] as [(String?, String?, Bool)])
    func a304AppliesWhenItsETagMatchesWeakly(stored: String?, received: String?, applies: Bool) {
        let storedFields: HTTPFields = stored.map { ["ETag": $0] } ?? [:]
        let receivedFields: HTTPFields = received.map { ["ETag": $0] } ?? [:]
        #expect(CacheValidation.notModified(receivedFields, appliesTo: Self.entry(storedFields)) == applies)
    }

    @Test func the304sFieldsReplaceStoredOnesExceptFraming() {
        let stored: HTTPFields = [
            "Content-Type": "application/json", "Content-Length": "1", "Cache-Control": "max-age=1", "ETag": "\"v1\"",
            "X-Old": "kept",
        ]
        var received: HTTPFields = ["Cache-Control": "max-age=60", "Content-Length": "0", "Date": "now"]
        received.append(HTTPField(name: "X-Multi", value: "a"))
        received.append(HTTPField(name: "X-Multi", value: "b"))
        let merged = CacheValidation.merge(stored: stored, notModified: received)
        #expect(merged["Cache-Control"] == "max-age=60")
        #expect(merged["Content-Length"] == "1")
        #expect(merged["Content-Type"] == "application/json")
        #expect(merged["X-Old"] == "kept")
        #expect(merged["Date"] == "now")
        #expect(merged[values: "X-Multi"] == ["a", "b"])
    }

    @Test(.timeLimit(.minutes(1))) func hostileEntityTagsNeverCrash() {
        let seeds = ["\"v1\"", "W/\"v1\", \"v2\"", "*"]
        let stored = Self.entry(["ETag": "\"v1\""])
        var matched = 0
        for value in CacheFuzz.values(count: 100_000, seeds: seeds, seed: 13) {
            var fields = HTTPFields()
            fields.append(HTTPField(name: "ETag", value: value))
            if CacheValidation.notModified(fields, appliesTo: stored) { matched += 1 }
            if FixtureTransport.matches(value, tag: "\"v1\"") { matched += 1 }
        }
        #expect(matched > 0)
    }
}
