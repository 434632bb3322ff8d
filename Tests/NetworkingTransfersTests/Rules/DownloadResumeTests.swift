import Foundation
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

/// `DownloadResume` as tables: the request fields for a partial file, and what each answer means.
@Suite struct DownloadResumeTests {
    struct FieldsCase: Sendable, CustomStringConvertible {
        let bytes: Int64
        let validator: String?
        let expected: [String]
        var description: String { "\(bytes) bytes, validator \(validator ?? "none")" }
    }

    @Test(arguments: [
        FieldsCase(bytes: 0, validator: nil, expected: []),
        FieldsCase(bytes: 0, validator: "\"v1\"", expected: []),
        FieldsCase(bytes: 100, validator: nil, expected: []),
        FieldsCase(bytes: 100, validator: "", expected: []),
        FieldsCase(bytes: 100, validator: "\"v1\"", expected: ["Range: bytes=100-", "If-Range: \"v1\""]),
        FieldsCase(
            bytes: 7, validator: "Wed, 21 Oct 2015 07:28:00 GMT",
            expected: ["Range: bytes=7-", "If-Range: Wed, 21 Oct 2015 07:28:00 GMT"]),
    ])
    func requestFields(_ test: FieldsCase) {
        let rule = DownloadResume(partialBytes: test.bytes, validator: test.validator)
        #expect(rule.requestFields.map { "\($0.0.rawName): \($0.1)" } == test.expected)
    }

    struct DecisionCase: Sendable, CustomStringConvertible {
        let bytes: Int64
        let status: Int
        let contentRange: String?
        let contentLength: Int64?
        let expected: DownloadResume.Decision
        var description: String { "\(bytes) bytes, \(status) \(contentRange ?? "-")" }
    }

    @Test(arguments: [
        DecisionCase(
            bytes: 100, status: 206, contentRange: "bytes 100-999/1000", contentLength: 900,
            expected: .append(total: 1000)),
        DecisionCase(
            bytes: 100, status: 206, contentRange: "bytes 100-999/*", contentLength: 900, expected: .append(total: nil)),
        DecisionCase(
            bytes: 100, status: 206, contentRange: "bytes 0-999/1000", contentLength: 1000,
            expected: .discard("a 206 starting at byte 0, not at 100")),
        DecisionCase(
            bytes: 100, status: 206, contentRange: nil, contentLength: 900,
            expected: .discard("a 206 without a usable Content-Range")),
        DecisionCase(
            bytes: 100, status: 206, contentRange: "bytes 999-100/1000", contentLength: nil,
            expected: .discard("a 206 without a usable Content-Range")),
        DecisionCase(
            bytes: 0, status: 206, contentRange: "bytes 0-9/10", contentLength: 10,
            expected: .discard("a 206 answered a request for the whole file")),
        DecisionCase(bytes: 100, status: 200, contentRange: nil, contentLength: 1000, expected: .restart(total: 1000)),
        DecisionCase(bytes: 0, status: 200, contentRange: nil, contentLength: nil, expected: .restart(total: nil)),
        DecisionCase(bytes: 1000, status: 416, contentRange: "bytes */1000", contentLength: 0, expected: .complete),
        DecisionCase(
            bytes: 1200, status: 416, contentRange: "bytes */1000", contentLength: 0,
            expected: .discard("416 Range Not Satisfiable for a partial file of 1200 bytes")),
        DecisionCase(
            bytes: 1000, status: 416, contentRange: nil, contentLength: 0,
            expected: .discard("416 Range Not Satisfiable for a partial file of 1000 bytes")),
    ])
    func decisions(_ test: DecisionCase) {
        let rule = DownloadResume(partialBytes: test.bytes, validator: "\"v1\"")
        #expect(
            rule.decide(status: test.status, contentRange: test.contentRange, contentLength: test.contentLength)
                == test.expected)
    }

    @Test func aStrongETagIsPreferredAndAWeakOneCannotValidateARange() {
        #expect(DownloadResume.validator(etag: "\"a\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT") == "\"a\"")
        #expect(
            DownloadResume.validator(etag: "W/\"a\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT")
                == "Wed, 21 Oct 2015 07:28:00 GMT")
        #expect(DownloadResume.validator(etag: "W/\"a\"", lastModified: nil) == nil)
        #expect(DownloadResume.validator(etag: nil, lastModified: nil) == nil)
    }

    @Test func contentRangeParsing() {
        #expect(DownloadResume.parse("bytes 0-9/10")?.first == 0)
        #expect(DownloadResume.parse("bytes 0-9/10")?.total == 10)
        #expect(DownloadResume.parse("bytes */10")?.first == nil)
        #expect(DownloadResume.parse("bytes */10")?.total == 10)
        #expect(DownloadResume.parse("bytes 5-9/*")?.total == nil)
        #expect(DownloadResume.parse("bytes 0-10/10") == nil)
        #expect(DownloadResume.parse("items 0-9/10") == nil)
        #expect(DownloadResume.parse("bytes */*") == nil)
        #expect(DownloadResume.parse("bytes x-9/10") == nil)
    }
}
