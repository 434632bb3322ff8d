import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

/// The cache on a mock server and virtual time: hits, revalidation, what is stored and what is not.
@Suite struct HTTPCacheBehaviorTests {
    @Test func aFreshEntryAnswersWithNoSendAndSaysSo() async throws {
        let harness = try HTTPCacheHarness { _ in (200, ["Cache-Control": "max-age=60", "ETag": "\"v1\""], "one") }
        let (first, _) = try await harness.get()
        #expect(HTTPCacheBehavior.outcome(of: first) == nil)
        harness.clock.advance(by: .seconds(59))
        let (second, body) = try await harness.get()
        #expect(harness.sends == 1)
        #expect(body == "one")
        #expect(second.status.code == 200)
        #expect(HTTPCacheBehavior.outcome(of: second) == .hit)
        #expect(second.headerFields["Cache-Status"] == "Networking; hit")
        #expect(second.headerFields["Age"] == "59")
        #expect(harness.kinds == [.miss, .stored, .hit])
    }

    @Test func aStaleEntryIsRevalidatedAndA304ReturnsTheStoredBodyWithUpdatedHeaders() async throws {
        let harness = try HTTPCacheHarness { request in
            if request.headerFields["If-None-Match"] == "\"v1\"" {
                return (304, ["Cache-Control": "max-age=30", "ETag": "\"v1\"", "X-Version": "2"], "")
            }
            return (200, ["Cache-Control": "max-age=10", "ETag": "\"v1\"", "X-Version": "1"], "payload")
        }
        try await harness.get()
        harness.clock.advance(by: .seconds(11))
        let (revalidated, body) = try await harness.get()
        #expect(harness.sends == 2)
        #expect(harness.lastSent?.headerFields["If-None-Match"] == "\"v1\"")
        #expect(body == "payload")
        #expect(revalidated.status.code == 200)
        #expect(revalidated.headerFields["X-Version"] == "2")
        #expect(HTTPCacheBehavior.outcome(of: revalidated) == .revalidated)
        // The 304's max-age=30 now governs: fresh 29 s later, with no send.
        harness.clock.advance(by: .seconds(29))
        let (hit, _) = try await harness.get()
        #expect(harness.sends == 2)
        #expect(hit.headerFields["X-Version"] == "2")
        #expect(harness.kinds == [.miss, .stored, .revalidated, .hit])
    }

    @Test func lastModifiedIsSentBackAsIfModifiedSince() async throws {
        let stamp = "Tue, 14 Nov 2023 12:00:00 GMT"
        let harness = try HTTPCacheHarness { request in
            request.headerFields["If-Modified-Since"] == stamp
                ? (304, [:], "") : (200, ["Cache-Control": "no-cache", "Last-Modified": stamp], "body")
        }
        try await harness.get()
        let (_, body) = try await harness.get()
        #expect(harness.sends == 2)
        #expect(harness.lastSent?.headerFields["If-Modified-Since"] == stamp)
        #expect(body == "body")
        #expect(harness.kinds == [.miss, .stored, .revalidated])
    }

    @Test func a304ForAnotherETagDropsTheEntryAndFetchesAgain() async throws {
        let harness = try HTTPCacheHarness { request in
            if request.headerFields.contains("If-None-Match") { return (304, ["ETag": "\"other\""], "") }
            return (200, ["ETag": "\"v1\""], "fresh copy")
        }
        try await harness.get()
        let (response, body) = try await harness.get()
        #expect(harness.sends == 3)
        #expect(harness.lastSent?.headerFields.contains("If-None-Match") == false)
        #expect(body == "fresh copy")
        #expect(HTTPCacheBehavior.outcome(of: response) == nil)
    }

    @Test(arguments: ["no-store", "max-age=60, no-store"])
    func noStoreResponsesAreNeverStored(control: String) async throws {
        let harness = try HTTPCacheHarness { _ in (200, ["Cache-Control": control, "ETag": "\"v\""], "x") }
        try await harness.get()
        try await harness.get()
        #expect(harness.sends == 2)
        #expect(harness.lastSent?.headerFields.contains("If-None-Match") == false)
        #expect(harness.kinds == [.miss, .notStored, .miss, .notStored])
    }

    @Test(arguments: ["no-cache", "max-age=0"])
    func aRequestCanAskForRevalidationOfAFreshEntry(control: String) async throws {
        let harness = try HTTPCacheHarness { request in
            request.headerFields.contains("If-None-Match")
                ? (304, [:], "") : (200, ["Cache-Control": "max-age=600", "ETag": "\"v\""], "x")
        }
        try await harness.get()
        harness.clock.advance(by: .seconds(1))
        try await harness.get(headers: ["Cache-Control": control])
        #expect(harness.sends == 2)
        #expect(harness.kinds.last == .revalidated)
    }

    @Test func aRequestSayingNoStoreIsAnsweredButNotStored() async throws {
        let harness = try HTTPCacheHarness { _ in (200, ["Cache-Control": "max-age=60"], "x") }
        try await harness.get(headers: ["Cache-Control": "no-store"])
        try await harness.get()
        #expect(harness.sends == 2)
    }

    struct CredentialRow: Sendable, CustomStringConvertible {
        let mode: HTTPCacheBehavior.Mode
        let control: String
        /// Sends for alice, alice again, then bob.
        let sends: Int
        /// Whether bob got alice's body (allowed only when the server said the response is shareable).
        let bobGetsAlices: Bool
        var description: String { "\(mode) \(control)" }
    }

    /// RFC 9111 §3.5: a private cache keeps each credential's answers apart; a shared one stores an answer to a
    /// credentialed request only when the response allows sharing it, and then shares it.
    static let credentialRows: [CredentialRow] = [
        CredentialRow(mode: .private, control: "max-age=60", sends: 2, bobGetsAlices: false),
        CredentialRow(mode: .private, control: "private, max-age=60", sends: 2, bobGetsAlices: false),
        CredentialRow(mode: .private, control: "public, max-age=60", sends: 2, bobGetsAlices: false),
        CredentialRow(mode: .shared, control: "max-age=60", sends: 3, bobGetsAlices: false),
        CredentialRow(mode: .shared, control: "private, max-age=60", sends: 3, bobGetsAlices: false),
        CredentialRow(mode: .shared, control: "public, max-age=60", sends: 1, bobGetsAlices: true),
        CredentialRow(mode: .shared, control: "s-maxage=60", sends: 1, bobGetsAlices: true),
    ]

    @Test(arguments: credentialRows)
    func answersToCredentialedRequestsFollowTheMode(row: CredentialRow) async throws {
        let harness = try HTTPCacheHarness(mode: row.mode) { request in
            (200, ["Cache-Control": row.control], request.headerFields[.authorization] ?? "")
        }
        let (_, alice) = try await harness.get(headers: ["Authorization": "Bearer alice"])
        let (_, again) = try await harness.get(headers: ["Authorization": "Bearer alice"])
        let (_, bob) = try await harness.get(headers: ["Authorization": "Bearer bob"])
        #expect(alice == "Bearer alice")
        #expect(again == "Bearer alice")
        #expect(bob == (row.bobGetsAlices ? "Bearer alice" : "Bearer bob"))
        #expect(harness.sends == row.sends)
    }

    @Test func aPrivateCacheKeepsTheCredentialOutOfItsStore() async throws {
        let store = InMemoryHTTPCacheStore()
        let harness = try HTTPCacheHarness(store: store) { _ in (200, ["Cache-Control": "max-age=60"], "x") }
        try await harness.get(headers: ["Authorization": "Bearer s3cret"])
        let keys = harness.events.current.map(\.key)
        #expect(!keys.isEmpty && keys.allSatisfy { !$0.contains("s3cret") })
        #expect(store.entry(forKey: "https://api.test/items") == nil)
    }

    @Test func varyKeepsVariantsApart() async throws {
        let harness = try HTTPCacheHarness { request in
            (
                200, ["Cache-Control": "max-age=60", "Vary": "Accept-Language"],
                request.headerFields["Accept-Language"] ?? "none"
            )
        }
        try await harness.get(headers: ["Accept-Language": "fr"])
        let (_, french) = try await harness.get(headers: ["Accept-Language": "fr"])
        #expect(harness.sends == 1)
        #expect(french == "fr")
        let (_, english) = try await harness.get(headers: ["Accept-Language": "en"])
        #expect(harness.sends == 2)
        #expect(english == "en")
        let (_, again) = try await harness.get(headers: ["Accept-Language": "en"])
        #expect(harness.sends == 2)
        #expect(again == "en")
    }

    @Test(arguments: [HTTPMethod.post, .put, .patch, .delete])
    func aSuccessfulUnsafeMethodInvalidatesTheURL(method: HTTPMethod) async throws {
        let harness = try HTTPCacheHarness { _ in (200, ["Cache-Control": "max-age=60"], "x") }
        try await harness.get()
        try await harness.get("/items", method: method)
        try await harness.get()
        #expect(harness.sends == 3)
        #expect(harness.kinds.contains(.invalidated))
    }

    @Test func aFailedUnsafeMethodLeavesTheEntry() async throws {
        let harness = try HTTPCacheHarness { request in
            request.method == .post ? (500, [:], "") : (200, ["Cache-Control": "max-age=60"], "x")
        }
        try await harness.get()
        _ = try await expectNetworkError { try await harness.get("/items", method: .post) }
        try await harness.get()
        #expect(harness.sends == 2)
    }

    @Test func aSameOriginLocationIsInvalidatedToo() async throws {
        let harness = try HTTPCacheHarness { request in
            request.method == .post
                ? (201, ["Location": "/items/7", "Content-Location": "https://elsewhere.test/items/8"], "")
                : (200, ["Cache-Control": "max-age=60"], "x")
        }
        try await harness.get("/items/7")
        try await harness.get("/items", method: .post)
        let invalidated = harness.events.current.filter { $0.kind == .invalidated }.map(\.key)
        #expect(invalidated == ["https://api.test/items", "https://api.test/items/7"])
        try await harness.get("/items/7")
        #expect(harness.sends == 3)
    }

    @Test func aCallersOwnConditionalRequestPassesThroughUntouched() async throws {
        let harness = try HTTPCacheHarness { _ in (200, ["Cache-Control": "max-age=60", "ETag": "\"v\""], "x") }
        try await harness.get(headers: ["If-None-Match": "\"mine\""])
        try await harness.get(headers: ["If-None-Match": "\"mine\""])
        #expect(harness.sends == 2)
        #expect(harness.lastSent?.headerFields["If-None-Match"] == "\"mine\"")
        #expect(harness.kinds.isEmpty)
    }

    @Test func headIsPassedThroughAndNotStored() async throws {
        let harness = try HTTPCacheHarness { _ in (200, ["Cache-Control": "max-age=60"], "") }
        try await harness.get(method: .head)
        try await harness.get(method: .head)
        #expect(harness.sends == 2)
    }

    @Test func aStaleEntryWithoutValidatorsIsFetchedAgain() async throws {
        let harness = try HTTPCacheHarness { _ in (200, ["Cache-Control": "max-age=5"], "x") }
        try await harness.get()
        harness.clock.advance(by: .seconds(5))
        try await harness.get()
        #expect(harness.sends == 2)
        #expect(harness.lastSent?.headerFields.contains("If-None-Match") == false)
        #expect(harness.kinds == [.miss, .stored, .miss, .stored])
    }

    @Test func malformedHeadersAreReportedAndIgnored() async throws {
        let harness = try HTTPCacheHarness { _ in
            (200, ["Cache-Control": "max-age=soon", "Expires": "tomorrow", "Age": "old", "ETag": "\"v\""], "x")
        }
        try await harness.get()
        let ignored = harness.events.current.filter { $0.kind == .ignoredHeader }.compactMap(\.detail)
        #expect(ignored.contains { $0.hasPrefix("Cache-Control: max-age") })
        #expect(ignored.contains { $0.hasPrefix("Expires:") })
        #expect(ignored.contains { $0.hasPrefix("Age:") })
        try await harness.get()
        #expect(harness.sends == 2)  // stale: max-age=soon reads as 0
    }

    @Test func aFailedRevalidationFailsTheCallAndKeepsTheEntry() async throws {
        let failing = LockedBox(false)
        let harness = try HTTPCacheHarness { request in
            if failing.current { return (503, [:], "") }
            return request.headerFields.contains("If-None-Match") ? (304, [:], "") : (200, ["ETag": "\"v\""], "x")
        }
        try await harness.get()
        failing.withLock { $0 = true }
        let error = try await expectNetworkError { try await harness.get() }
        #expect(error?.statusCode == 503)
        failing.withLock { $0 = false }
        let (response, body) = try await harness.get()
        #expect(body == "x")
        #expect(HTTPCacheBehavior.outcome(of: response) == .revalidated)
    }
}
