import Foundation
import Testing

@testable import NetworkingHTTP
@testable import NetworkingCore
@testable import NetworkingHTTPCache
import NetworkingTestSupport

/// RFC 9111 (HTTP caching), RFC 5861 and RFC 8246 on the pure rule types (`CacheControl`, `CacheFreshness`,
/// `CacheStorability`, `HTTPDate`): one row per rule. Listed in `Networking.docc/Conformance.md`.
@Suite struct HTTPCacheConformanceTests {
    /// 2023-11-14 22:13:20 GMT.
    static let arrived = Date(timeIntervalSince1970: 1_700_000_000)
    static let arrivedText = "Tue, 14 Nov 2023 22:13:20 GMT"
    static let hourLater = "Tue, 14 Nov 2023 23:13:20 GMT"

    /// A freshness row: the response's fields (repeated names allowed), how long the request took, how long the
    /// response has been stored, and the expected lifetime and age.
    struct FreshnessRow: Sendable, CustomTestStringConvertible {
        let section: String
        let rule: String
        let fields: [(String, String)]
        var delay: TimeInterval = 0
        var resident: TimeInterval = 0
        let lifetime: Int64
        let age: Int64
        var testDescription: String { "\(section) \(rule)" }
    }

    static let freshnessRows: [FreshnessRow] = [
        FreshnessRow(
            section: "§5.1", rule: "a list-valued Age uses its first member",
            fields: [("Cache-Control", "max-age=3600"), ("Age", "7200, 0")], lifetime: 3_600, age: 7_200),
        FreshnessRow(
            section: "§5.1", rule: "of two Age fields, the first counts",
            fields: [("Cache-Control", "max-age=3600"), ("Age", "7200"), ("Age", "0")], lifetime: 3_600, age: 7_200),
        FreshnessRow(
            section: "§5.1", rule: "an Age that is not a number is ignored",
            fields: [("Age", "soon, 10")], resident: 3, lifetime: 0, age: 3),
        FreshnessRow(
            section: "§5.3", rule: "a valid Expires gives the lifetime",
            fields: [("Expires", hourLater), ("Date", arrivedText)], lifetime: 3_600, age: 0),
        FreshnessRow(
            section: "§5.3", rule: "an Expires with extra spaces is invalid: already expired",
            fields: [("Expires", "Tue,  14 Nov 2023 23:13:20 GMT"), ("Date", arrivedText)], lifetime: 0, age: 0),
        FreshnessRow(
            section: "§5.3", rule: "Expires: 0 is already expired", fields: [("Expires", "0")], lifetime: 0, age: 0),
        FreshnessRow(
            section: "§4.2.1", rule: "two Expires fields: the response is considered stale, already expired",
            fields: [("Expires", hourLater), ("Expires", hourLater)], lifetime: 0, age: 0),
        FreshnessRow(
            section: "§5.3, RFC 9110 §5.6.7", rule: "the obsolete RFC 850 form is a valid Expires",
            fields: [("Expires", "Tuesday, 14-Nov-23 23:13:20 GMT"), ("Date", arrivedText)], lifetime: 3_600, age: 0),
        FreshnessRow(
            section: "§5.3, RFC 9110 §5.6.7", rule: "the asctime form, two spaces before a one-digit day",
            fields: [("Expires", "Sat Dec  2 00:13:20 2023"), ("Date", arrivedText)], lifetime: 1_476_000, age: 0),
        FreshnessRow(
            section: "§5.3, RFC 9110 §5.6.7",
            rule: "the asctime form with one space before a one-digit day is invalid: already expired",
            fields: [("Expires", "Sat Dec 2 00:13:20 2023"), ("Date", arrivedText)], lifetime: 0, age: 0),
        FreshnessRow(
            section: "§4.2.1", rule: "max-age wins over an invalid Expires",
            fields: [("Cache-Control", "max-age=60"), ("Expires", "soon")], lifetime: 60, age: 0),
        FreshnessRow(
            section: "§4.2.3", rule: "corrected age: Age plus the response delay",
            fields: [("Age", "10"), ("Date", arrivedText)], delay: 5, lifetime: 0, age: 15),
        FreshnessRow(
            section: "§4.2.3", rule: "the apparent age wins when larger",
            fields: [("Age", "10"), ("Date", "Tue, 14 Nov 2023 22:11:40 GMT")], delay: 5, lifetime: 0, age: 100),
        FreshnessRow(
            section: "§4.2.3", rule: "plus the time resident in the cache",
            fields: [("Age", "10")], delay: 5, resident: 30, lifetime: 0, age: 45),
        FreshnessRow(
            section: "§4.2.3", rule: "a Date in the future gives no negative apparent age",
            fields: [("Date", "Wed, 15 Nov 2023 22:13:20 GMT")], delay: 2, lifetime: 0, age: 2),
    ]

    @Test(arguments: freshnessRows) func freshnessAndAgeFollowRFC9111(row: FreshnessRow) {
        var fields = HTTPFields()
        for (name, value) in row.fields { fields.append(HTTPField(name: HTTPField.Name(name), value: value)) }
        let entry = HTTPCacheEntry(
            status: 200, headerFields: fields, body: Data(), requestDate: Self.arrived.addingTimeInterval(-row.delay),
            responseDate: Self.arrived)
        #expect(CacheFreshness.lifetime(of: entry) == row.lifetime)
        #expect(CacheFreshness.currentAge(of: entry, now: Self.arrived.addingTimeInterval(row.resident)) == row.age)
    }

    struct StoreRow: Sendable, CustomTestStringConvertible {
        let section: String
        let rule: String
        var method: HTTPMethod = .get
        let status: Int
        let response: [String: String]
        let stored: Bool
        var testDescription: String { "\(section) \(rule)" }
    }

    static let storeRows: [StoreRow] = [
        StoreRow(
            section: "§3", rule: "explicit freshness makes a 500 storable", status: 500,
            response: ["Cache-Control": "max-age=60"], stored: true),
        StoreRow(
            section: "§3", rule: "an Expires makes a 302 storable", status: 302, response: ["Expires": hourLater],
            stored: true),
        StoreRow(
            section: "§3", rule: "public makes a 302 storable", status: 302, response: ["Cache-Control": "public"],
            stored: true),
        StoreRow(
            section: "§3", rule: "private makes a 302 storable in a private cache", status: 302,
            response: ["Cache-Control": "private"], stored: true),
        StoreRow(
            section: "§3", rule: "a 302 without freshness is not stored", status: 302, response: [:], stored: false),
        StoreRow(
            section: "§3", rule: "a status this cache does not know (299) is stored with max-age", status: 299,
            response: ["Cache-Control": "max-age=60"], stored: true),
        StoreRow(
            section: "§3", rule: "a status this cache does not know (499) is stored with an Expires", status: 499,
            response: ["Expires": hourLater], stored: true),
        StoreRow(
            section: "§3", rule: "a status this cache does not know (599) is stored with public", status: 599,
            response: ["Cache-Control": "public"], stored: true),
        StoreRow(
            section: "§3", rule: "a status this cache does not know (599) is not stored without freshness",
            status: 599, response: [:], stored: false),
        StoreRow(
            section: "§3, RFC 9110 §15", rule: "a status outside 200 to 599 is not stored", status: 600,
            response: ["Cache-Control": "max-age=60"], stored: false),
        StoreRow(
            section: "§3", rule: "a 304 is never stored itself", status: 304,
            response: ["Cache-Control": "max-age=60"], stored: false),
        StoreRow(
            section: "§5.2.2.3", rule: "must-understand with an understood status overrides no-store", status: 200,
            response: ["Cache-Control": "no-store, must-understand, max-age=60"], stored: true),
        StoreRow(
            section: "§5.2.2.3", rule: "must-understand with a status not understood is not stored", status: 299,
            response: ["Cache-Control": "no-store, must-understand, max-age=60"], stored: false),
        StoreRow(
            section: "§5.2.2.5", rule: "no-store without must-understand is not stored", status: 200,
            response: ["Cache-Control": "no-store, max-age=60"], stored: false),
        StoreRow(
            section: "RFC 9110 §9.3.3",
            rule: "a POST answer whose Content-Location is the request URL, with explicit freshness, is stored",
            method: .post, status: 200, response: ["Content-Location": "/items", "Cache-Control": "max-age=60"],
            stored: true),
        StoreRow(
            section: "RFC 9110 §9.3.3", rule: "a POST answer whose Content-Location is another URL is not stored",
            method: .post, status: 200, response: ["Content-Location": "/items/7", "Cache-Control": "max-age=60"],
            stored: false),
        StoreRow(
            section: "RFC 9110 §9.3.3", rule: "a POST answer without explicit freshness is not stored", method: .post,
            status: 200, response: ["Content-Location": "https://api.test/items"], stored: false),
        StoreRow(
            section: "§3.3", rule: "206 is not stored (see the departures)", status: 206,
            response: ["Cache-Control": "max-age=60", "Content-Range": "bytes 0-1/10"], stored: false),
    ]

    @Test(arguments: storeRows) func responsesAreStoredAsRFC9111Section3Says(row: StoreRow) {
        let request = HTTPRequest(method: row.method, url: URL(string: "https://api.test/items")!)
        let reason = CacheStorability.reasonNotToStore(
            request: request, status: row.status, response: HTTPFields(row.response))
        #expect((reason == nil) == row.stored, "\(reason ?? "storable")")
    }

    struct DirectiveRow: Sendable, CustomTestStringConvertible {
        let section: String
        let rule: String
        let value: String
        let check: @Sendable (CacheControl) -> Bool
        var testDescription: String { "\(section) \(rule)" }
    }

    static let directiveRows: [DirectiveRow] = [
        DirectiveRow(
            section: "RFC 5861 §3", rule: "stale-while-revalidate in seconds", value: "stale-while-revalidate=30"
        ) {
            $0.staleWhileRevalidate == 30
        },
        DirectiveRow(
            section: "RFC 5861 §4", rule: "stale-if-error in seconds", value: "max-age=1, Stale-If-Error=\"60\""
        ) {
            $0.staleIfError == 60 && $0.maxAge == 1
        },
        DirectiveRow(
            section: "RFC 5861 §3", rule: "a malformed window allows no stale response",
            value: "stale-while-revalidate=x"
        ) { $0.staleWhileRevalidate == nil && $0.problems.count == 1 },
        DirectiveRow(section: "RFC 8246 §2", rule: "immutable", value: "max-age=60, immutable") { $0.immutable },
        DirectiveRow(section: "§5.2.2.3", rule: "must-understand", value: "must-understand, no-store") {
            $0.mustUnderstand && $0.noStore
        },
    ]

    @Test(arguments: directiveRows) func cacheControlExtensionsAreRead(row: DirectiveRow) {
        #expect(row.check(CacheControl([row.value])))
    }
}
