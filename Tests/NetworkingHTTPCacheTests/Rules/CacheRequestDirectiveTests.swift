import Foundation
import Testing

@testable import Networking
@testable import NetworkingCore
@testable import NetworkingHTTPCache
import NetworkingTestSupport
import NetworkingTesting

/// The request directives of RFC 9111 §5.2.1 as `CacheControl` reads them, and `CacheRequestPolicy` as it writes
/// them: tables, each row with its section.
@Suite struct CacheRequestDirectiveTests {
    /// §5.2.1.2, §5.2.1.3, §5.2.1.7: `max-stale` with a value or without (any staleness), `min-fresh`,
    /// `only-if-cached`; a malformed number is ignored and reported, accepting nothing stale.
    @Test(
        arguments: [
            ("max-stale=30", Int64?.some(30), Int64?.none, false, 0),
            ("max-stale", CacheControl.maximumDeltaSeconds, nil, false, 0),
            ("MAX-STALE=\"45\"", 45, nil, false, 0),
            ("max-stale=soon", nil, nil, false, 1),
            ("min-fresh=20", nil, 20, false, 0),
            ("min-fresh", nil, nil, false, 1),
            ("only-if-cached, max-stale=5", 5, nil, true, 0),
        ] as [(String, Int64?, Int64?, Bool, Int)])
    func requestDirectivesAreRead(value: String, maxStale: Int64?, minFresh: Int64?, onlyIfCached: Bool, problems: Int)
    {
        let control = CacheControl([value])
        #expect(control.maxStale == maxStale)
        #expect(control.minFresh == minFresh)
        #expect(control.onlyIfCached == onlyIfCached)
        #expect(control.problems.count == problems)
    }

    /// Each policy written as the directives it stands for, read back by the cache's own parser.
    @Test(arguments: [
        (CacheRequestPolicy.offline, "max-stale, only-if-cached"),
        (.reload, "no-cache"),
        (.bypass, "no-store"),
        (.staleIfError(upTo: .seconds(600)), "stale-if-error=600"),
        (
            CacheRequestPolicy(maxAge: .milliseconds(1_500), maxStale: .upTo(.seconds(30)), minFresh: .seconds(5)),
            "max-age=1, max-stale=30, min-fresh=5"
        ),
        (CacheRequestPolicy(maxAge: .seconds(-3)), "max-age=0"),
        (CacheRequestPolicy(minFresh: .milliseconds(1_100)), "min-fresh=2"),
        (CacheRequestPolicy(), ""),
    ])
    func policiesAreWrittenAsTheirDirectives(policy: CacheRequestPolicy, value: String) {
        #expect(policy.headerValue == value)
        #expect(policy.description == value)
        let read = CacheControl([value])
        #expect(read.onlyIfCached == policy.onlyIfCached && read.noCache == policy.noCache)
        #expect(read.noStore == policy.noStore && read.problems.isEmpty)
    }

    /// Alone: the behavior replaces the request's `Cache-Control` with the policy's, and leaves a request alone when
    /// the policy asks nothing.
    @Test func theBehaviorAloneWritesThePolicysHeader() async throws {
        let seen = LockedBox<[String?]>([])
        let next: NextHandler = { request in
            seen.withLock { $0.append(request.headerFields["Cache-Control"]) }
            return (HTTPResponse(status: .ok, url: request.url), .empty)
        }
        let request = HTTPRequest(
            method: .get, url: URL(string: "https://api.test/a")!, headerFields: ["Cache-Control": "no-cache"])
        _ = try await CacheRequestPolicyBehavior(policy: .offline).intercept(
            request, context: RequestContext(), next: next)
        _ = try await CacheRequestPolicyBehavior(policy: CacheRequestPolicy()).intercept(
            request, context: RequestContext(), next: next)
        #expect(seen.current == ["max-stale, only-if-cached", "no-cache"])
    }

    /// The per-request behavior writes the policy into the request, replacing the request's own, before the cache.
    @Test func theBehaviorWritesThePolicyBeforeTheCacheReadsIt() async throws {
        let transport = MockTransport { request in
            (HTTPResponse(status: .ok, headerFields: ["Cache-Control": "max-age=60"], url: request.url), Data("x".utf8))
        }
        let client = NetworkClient(
            configuration: .init(
                baseURL: URL(string: "https://api.test")!, transport: transport, behavior: .httpCache()))
        let request = NetworkRequest<Data>(path: "/a", headers: ["Cache-Control": "no-cache"])
        let error = try await expectNetworkError { try await client.send(request, behavior: .cachePolicy(.offline)) }
        #expect(error?.underlyingError is OnlyIfCachedMiss && transport.requestCount == 0)
        _ = try await client.send(request, behavior: .cachePolicy(.reload))
        #expect(transport.requests.last?.headerFields["Cache-Control"] == "no-cache")
        _ = try await client.send(NetworkRequest<Data>(path: "/a"), behavior: .cachePolicy(.offline))
        #expect(transport.requestCount == 1)
        #expect(CacheRequestPolicyBehavior(policy: .offline).placement == .modification)
    }
}
