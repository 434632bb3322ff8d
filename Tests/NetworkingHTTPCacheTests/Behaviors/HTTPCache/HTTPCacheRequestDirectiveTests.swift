import Foundation
import Networking
import NetworkingTesting
import NetworkingTestSupport
import Testing

/// The request's `Cache-Control` through a client (RFC 9111 §5.2.1, RFC 5861 §4), on virtual time; each test counts
/// what reached the server. The rows follow the public cache suite's request-directive checks.
@Suite struct HTTPCacheRequestDirectiveTests {
    private static func aging(_ fields: HTTPFields) throws -> HTTPCacheHarness {
        try HTTPCacheHarness { _ in (200, fields, "stored") }
    }

    /// §5.2.1.2: a stale response within the request's `max-stale` answers, marked stale; past it, the network.
    @Test(arguments: [("max-stale=1000", 1, true), ("max-stale", 1, true), ("max-stale=50", 2, false)])
    func maxStaleServesAStaleResponseWithinItsLimit(directive: String, sends: Int, servedStale: Bool) async throws {
        let harness = try Self.aging(["Cache-Control": "max-age=1"])
        try await harness.get()
        harness.clock.advance(by: .seconds(100))
        let (response, body) = try await harness.get(headers: ["Cache-Control": directive])
        #expect(harness.sends == sends)
        #expect((HTTPCacheBehavior.outcome(of: response) == .servedStale) == servedStale)
        #expect(body == "stored")
        if servedStale { #expect(response.headerFields["Age"] == "100") }
    }

    /// §5.2.1.2 with a response `Age`d past its lifetime (max-age=1500, Age: 2000): stale by 500, within 1000.
    @Test func maxStaleCountsTheAgeTheResponseArrivedWith() async throws {
        let harness = try Self.aging(["Cache-Control": "max-age=1500", "Age": "2000"])
        try await harness.get()
        try await harness.get(headers: ["Cache-Control": "max-stale=1000"])
        #expect(harness.sends == 1)
    }

    /// §4.2.4: `no-cache` or `must-revalidate` in the response, or `s-maxage` in a shared cache, forbids serving it
    /// stale, whatever the request accepts.
    @Test(arguments: ["max-age=1, must-revalidate", "max-age=1, no-cache"])
    func maxStaleYieldsToAResponseThatForbidsStaleness(cacheControl: String) async throws {
        let harness = try Self.aging(HTTPFields(["Cache-Control": cacheControl]))
        try await harness.get()
        harness.clock.advance(by: .seconds(10))
        try await harness.get(headers: ["Cache-Control": "max-stale"])
        #expect(harness.sends == 2)
    }

    /// §5.2.1.3: a response that will not stay fresh for `min-fresh` more seconds is not served.
    @Test(
        arguments: [
            (["Cache-Control": "max-age=1500"], "min-fresh=2000", 2),
            (["Cache-Control": "max-age=1500", "Age": "1000"], "min-fresh=1000", 2),
            (["Cache-Control": "max-age=1500"], "min-fresh=100", 1),
        ] as [(HTTPFields, String, Int)])
    func minFreshAsksForAResponseFreshForLonger(fields: HTTPFields, directive: String, sends: Int) async throws {
        let harness = try Self.aging(fields)
        try await harness.get()
        try await harness.get(headers: HTTPFields(["Cache-Control": directive]))
        #expect(harness.sends == sends)
    }

    /// §5.2.1.7: nothing stored, nothing sent: a 504 thrown as an unacceptable status, caused by an
    /// `OnlyIfCachedMiss`, which no retry touches.
    @Test func onlyIfCachedWithNothingStoredIsA504WithoutASend() async throws {
        let retries = LockedBox(0)
        let harness = try HTTPCacheHarness(outer: [.retry(onRetry: { _ in retries.withLock { $0 += 1 } })]) { _ in
            (200, ["Cache-Control": "max-age=60"], "x")
        }
        let error = try await expectNetworkError { try await harness.get(headers: ["Cache-Control": "only-if-cached"]) }
        #expect(error?.kind == .unacceptableStatus(504))
        #expect(error?.underlyingError is OnlyIfCachedMiss)
        #expect(error.flatMap { $0.response.map(HTTPCacheBehavior.outcome(of:)) } == .miss)
        #expect(error.map { FailureClassification($0).kind } == .rejected)
        #expect(error?.message.contains("only-if-cached") == true)
        #expect(harness.sends == 0 && retries.current == 0)
    }

    /// §5.2.1.7: a fresh stored response answers; a stale one does not (a 504), unless `max-stale` accepts it.
    @Test func onlyIfCachedAnswersFromTheStoreOrNotAtAll() async throws {
        let harness = try Self.aging(["Cache-Control": "max-age=60"])
        try await harness.get()
        let (fresh, _) = try await harness.get(headers: ["Cache-Control": "only-if-cached"])
        #expect(HTTPCacheBehavior.outcome(of: fresh) == .hit)
        harness.clock.advance(by: .seconds(3600))
        let error = try await expectNetworkError { try await harness.get(headers: ["Cache-Control": "only-if-cached"]) }
        #expect(error?.kind == .unacceptableStatus(504))
        let (offline, body) = try await harness.get(headers: ["Cache-Control": "max-stale, only-if-cached"])
        #expect(HTTPCacheBehavior.outcome(of: offline) == .servedStale && body == "stored")
        #expect(harness.sends == 1)
    }

    /// §5.2.1.5: a request's `no-store` keeps the cache out: a fresh stored response does not answer it, and its
    /// own response is not stored.
    @Test func noStoreNeitherReadsNorWritesTheStore() async throws {
        let harness = try Self.aging(["Cache-Control": "max-age=60"])
        try await harness.get("/kept")
        try await harness.get("/kept", headers: ["Cache-Control": "no-store"])
        #expect(harness.sends == 2)
        try await harness.get("/not-kept", headers: ["Cache-Control": "no-store"])
        try await harness.get("/not-kept")
        #expect(harness.sends == 4)
        let error = try await expectNetworkError {
            try await harness.get("/kept", headers: ["Cache-Control": "no-store, only-if-cached"])
        }
        #expect(error?.kind == .unacceptableStatus(504) && harness.sends == 4)
    }

    /// RFC 5861 §4: a request's `stale-if-error` serves the stale response when the server fails, within its window.
    @Test(arguments: [("stale-if-error=60", true), ("stale-if-error=5", false), ("max-stale=0", false)])
    func staleIfErrorInTheRequestServesTheStaleResponseOnFailure(directive: String, served: Bool) async throws {
        let failing = LockedBox(false)
        let harness = try HTTPCacheHarness { _ in
            failing.current ? (503, [:], "down") : (200, ["Cache-Control": "max-age=1"], "stored")
        }
        try await harness.get()
        harness.clock.advance(by: .seconds(10))
        failing.withLock { $0 = true }
        let headers = HTTPFields(["Cache-Control": directive])
        if served {
            let (response, body) = try await harness.get(headers: headers)
            #expect(HTTPCacheBehavior.outcome(of: response) == .servedStale && body == "stored")
        } else {
            let error = try await expectNetworkError { try await harness.get(headers: headers) }
            #expect(error?.kind == .unacceptableStatus(503))
        }
        #expect(harness.sends == 2)
    }

    /// §5.2.1.7: `only-if-cached` on a request the store never answers is a 504 too: nothing reaches the server.
    @Test(
        arguments: [
            (HTTPMethod.post, ["Cache-Control": "only-if-cached"]),
            (.head, ["Cache-Control": "only-if-cached"]),
            (.get, ["Cache-Control": "only-if-cached", "If-None-Match": "\"v\""]),
            (.get, ["Cache-Control": "only-if-cached", "Range": "bytes=0-1"]),
        ] as [(HTTPMethod, [String: String])])
    func onlyIfCachedNeverReachesTheNetworkWhateverTheRequest(method: HTTPMethod, fields: [String: String])
        async throws
    {
        let headers = HTTPFields(fields)
        let harness = try Self.aging(["Cache-Control": "max-age=60", "ETag": "\"v\""])
        try await harness.get()
        let error = try await expectNetworkError { try await harness.get(method: method, headers: headers) }
        #expect(error?.kind == .unacceptableStatus(504) && error?.underlyingError is OnlyIfCachedMiss)
        #expect(error?.builtRequest != nil && error?.sentRequest == nil)
        #expect(harness.sends == 1)
    }

    /// §5.2.1.3 with RFC 5861 §3: a fresh response that will not stay fresh long enough is not served while it is
    /// revalidated (that is for stale ones): the call waits for the server.
    @Test func minFreshIsNotAnsweredWhileRevalidating() async throws {
        let harness = try Self.aging(["Cache-Control": "max-age=100, stale-while-revalidate=1000", "ETag": "\"v\""])
        try await harness.get()
        let (response, _) = try await harness.get(headers: ["Cache-Control": "min-fresh=500"])
        #expect(HTTPCacheBehavior.outcome(of: response) != .servedStale)
        #expect(harness.sends == 2)
    }

    /// RFC 5861 §4: `stale-if-error` stands in for a failing server, not for an answer: a 503 gets the stale
    /// response, a 404 or a 401 goes to the caller.
    @Test(arguments: [(503, true), (404, false), (401, false)])
    func staleIfErrorAnswersServerFailuresOnly(status: Int, served: Bool) async throws {
        let failing = LockedBox(false)
        let harness = try HTTPCacheHarness { _ in
            failing.current ? (status, [:], "no") : (200, ["Cache-Control": "max-age=1, stale-if-error=600"], "stored")
        }
        try await harness.get()
        harness.clock.advance(by: .seconds(10))
        failing.withLock { $0 = true }
        if served {
            let (response, _) = try await harness.get()
            #expect(HTTPCacheBehavior.outcome(of: response) == .servedStale)
        } else {
            let error = try await expectNetworkError { try await harness.get() }
            #expect(error?.kind == .unacceptableStatus(status))
        }
    }

    /// §5.2.2.8: in a shared cache `proxy-revalidate` is `must-revalidate`: never served stale, whatever `max-stale`
    /// accepts; a private cache ignores it.
    @Test(arguments: [(HTTPCacheBehavior.Mode.shared, 2), (.private, 1)])
    func proxyRevalidateForbidsStaleInASharedCache(mode: HTTPCacheBehavior.Mode, sends: Int) async throws {
        let harness = try HTTPCacheHarness(mode: mode) { _ in
            (200, ["Cache-Control": "public, max-age=1, proxy-revalidate"], "stored")
        }
        try await harness.get()
        harness.clock.advance(by: .seconds(10))
        try await harness.get(headers: ["Cache-Control": "max-stale"])
        #expect(harness.sends == sends)
    }

    /// §3.1: the proxy's fields are neither stored nor served.
    @Test func theProxysFieldsAreNotServedFromTheStore() async throws {
        let harness = try Self.aging([
            "Cache-Control": "max-age=60", "Proxy-Authenticate": "Basic realm=\"proxy\"",
            "Proxy-Authentication-Info": "nextnonce=\"a\"", "X-Kept": "1",
        ])
        try await harness.get()
        let (hit, _) = try await harness.get()
        #expect(HTTPCacheBehavior.outcome(of: hit) == .hit)
        #expect(hit.headerFields["Proxy-Authenticate"] == nil && hit.headerFields["Proxy-Authentication-Info"] == nil)
        #expect(hit.headerFields["X-Kept"] == "1")
    }
}
