import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

/// Cases of the public HTTP cache suite (http-tests/cache-tests, named by their ids) that this cache once failed,
/// re-expressed through a client on a mock server and virtual time, counting what reaches the wire. The whole suite
/// runs with `make cache-tests` (Tests/Tools/cache_suite.py); listed in `Networking.docc/Conformance.md`.
@Suite struct HTTPCacheSuiteCasesTests {
    /// `GET /items` accepting any status, so that a 499 or 599 comes back as a response.
    @discardableResult
    static func get(_ harness: HTTPCacheHarness, headers: HTTPFields = [:]) async throws -> (HTTPResponse, String) {
        let request = NetworkRequest<Data>(
            method: .get, endpoint: .path("/items"), headers: headers, acceptableStatusCodes: Set(200..<600)
        ) { data, _, _ in data }
        let response = try await harness.client.response(for: request)
        return (response.response, String(decoding: response.body, as: UTF8.self))
    }

    /// `HEAD /items`.
    static func head(_ harness: HTTPCacheHarness) async throws -> HTTPResponse {
        try await harness.client.response(for: NetworkRequest<Data>(.head, path: "/items")).response
    }

    // status-299-fresh, status-499-fresh, status-599-fresh, status-*-stale (RFC 9111 §3).
    @Test(arguments: [299, 499, 599])
    func aStatusTheCacheDoesNotKnowIsReusedWhileFreshAndNotAfter(status: Int) async throws {
        let harness = try HTTPCacheHarness { _ in (status, ["Cache-Control": "max-age=60"], "whatever") }
        try await Self.get(harness)
        let (hit, body) = try await Self.get(harness)
        #expect(harness.sends == 1)
        #expect(hit.status.code == status && body == "whatever")
        harness.clock.advance(by: .seconds(61))
        try await Self.get(harness)
        #expect(harness.sends == 2)
    }

    // status-599-must-understand (RFC 9111 §5.2.2.3).
    @Test func mustUnderstandKeepsAStatusTheCacheDoesNotKnowOutOfTheStore() async throws {
        let harness = try HTTPCacheHarness { _ in (599, ["Cache-Control": "max-age=60, no-store, must-understand"], "")
        }
        try await Self.get(harness)
        try await Self.get(harness)
        #expect(harness.sends == 2)
    }

    // heuristic-599-cached, heuristic-599-not_cached (RFC 9111 §4.2.2).
    @Test(arguments: [("public", 1), ("", 2)])
    func aPublicResponseOfAnyStatusMayBeHeuristicallyFresh(control: String, sends: Int) async throws {
        let harness = try HTTPCacheHarness { _ in
            var fields: HTTPFields = [
                "Date": "Tue, 14 Nov 2023 22:13:20 GMT", "Last-Modified": "Mon, 13 Nov 2023 22:13:20 GMT",
            ]
            if !control.isEmpty { fields["Cache-Control"] = control }
            return (599, fields, "x")
        }
        try await Self.get(harness)
        try await Self.get(harness)
        #expect(harness.sends == sends)
    }

    // freshness-expires-wrong-case-tz, -weekday, -month (RFC 9111 §4.2: dates read case-insensitively).
    @Test(arguments: [
        "Thu, 18 Aug 2050 02:01:18 gMT", "THU, 18 Aug 2050 02:01:18 GMT", "Thu, 18 AUG 2050 02:01:18 GMT",
    ])
    func anExpiresInAnotherLetterCaseGivesFreshness(expires: String) async throws {
        let harness = try HTTPCacheHarness { _ in (200, ["Expires": expires], "x") }
        try await Self.get(harness)
        try await Self.get(harness)
        #expect(harness.sends == 1)
    }

    // head-200-freshness-update, head-200-update (RFC 9111 §4.3.5).
    @Test func aHEADsOKUpdatesTheStoredResponseItDescribes() async throws {
        let harness = try HTTPCacheHarness { request in
            request.method == .head
                ? (
                    200, ["Cache-Control": "max-age=1000", "ETag": "\"1\"", "Template-A": "2", "Content-Length": "4"],
                    ""
                )
                : (200, ["Cache-Control": "max-age=1", "ETag": "\"1\"", "Template-A": "1"], "body")
        }
        try await Self.get(harness)
        harness.clock.advance(by: .seconds(5))
        _ = try await Self.head(harness)
        let (hit, body) = try await Self.get(harness)
        #expect(harness.sends == 2)
        #expect(HTTPCacheBehavior.outcome(of: hit) == .hit)
        #expect(hit.headerFields["Template-A"] == "2" && body == "body")
    }

    @Test(arguments: [
        ("ETag", "\"2\""), ("Last-Modified", "Tue, 14 Nov 2023 22:13:20 GMT"), ("Content-Length", "5"),
    ])
    func aHEADsOKNamingAnotherRepresentationRemovesTheStoredResponse(name: String, value: String) async throws {
        let harness = try HTTPCacheHarness { request in
            request.method == .head
                ? (200, ["Cache-Control": "max-age=1000", HTTPField.Name(name): value], "")
                : (
                    200,
                    [
                        "Cache-Control": "max-age=1000", "ETag": "\"1\"",
                        "Last-Modified": "Mon, 13 Nov 2023 22:13:20 GMT",
                    ], "body"
                )
        }
        try await Self.get(harness)
        _ = try await Self.head(harness)
        try await Self.get(harness)
        #expect(harness.sends == 3)
        #expect(harness.kinds.contains(.invalidated))
    }

    @Test func aHEADIsNeverAnsweredFromTheStore() async throws {
        let harness = try HTTPCacheHarness { _ in (200, ["Cache-Control": "max-age=60"], "x") }
        try await Self.get(harness)
        let head = try await Self.head(harness)
        #expect(harness.sends == 2)
        #expect(HTTPCacheBehavior.outcome(of: head) == nil)
    }

    // vary-normalise-lang-space, -case (RFC 9111 §4.1), and members reordered by weight.
    @Test(arguments: [
        ("en, de", " en ,   de", true), ("en, de", "eN, De", true), ("de;q=0.5, en", "en, de;q=0.50", true),
        ("en, de", "de, en", false), ("en;q=0.5, de;q=0.5", "de;q=0.5, en;q=0.5", false),
    ])
    func acceptLanguageIsNormalisedWhereTheMeaningCannotChange(stored: String, new: String, cached: Bool)
        async throws
    {
        let harness = try HTTPCacheHarness { _ in
            (200, ["Cache-Control": "max-age=5000", "Vary": "Accept-Language"], "x")
        }
        try await Self.get(harness, headers: ["Accept-Language": stored])
        try await Self.get(harness, headers: ["Accept-Language": new])
        #expect(harness.sends == (cached ? 1 : 2))
    }
}
