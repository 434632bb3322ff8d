import Foundation
import Networking
import NetworkingTesting
import NetworkingTestSupport
import Testing

/// A cache policy promises what only an HTTP cache can keep (`.offline`: answer from the cache or fail at once), so a
/// call whose chain holds no cache fails unsent, saying the cache is missing, instead of going to the network.
@Suite struct CachePolicyWithoutCacheTests {
    @Test(arguments: [CacheRequestPolicy.offline, .reload, .bypass, .staleIfError(upTo: .seconds(60))])
    func aPolicyOnAClientWithoutACacheFailsUnsentSayingTheCacheIsMissing(policy: CacheRequestPolicy) async throws {
        let transport = MockTransport { request in (HTTPResponse(status: .ok, url: request.url), Data("x".utf8)) }
        let client = NetworkClient(
            configuration: .init(baseURL: URL(string: "https://api.test")!, transport: transport, behavior: .retry()))
        let error = try await expectNetworkError {
            try await client.send(NetworkRequest<Data>(path: "/items"), behavior: .cachePolicy(policy))
        }
        #expect(transport.requestCount == 0)
        #expect(error?.kind == .behavior("CacheRequestPolicyBehavior"))
        let missing = try #require(error?.underlyingError as? MissingHTTPCacheError)
        #expect(missing.policy == policy)
        #expect(error?.description.contains("no HTTP cache behavior is in the call's chain") == true)
        #expect(error?.description.contains("add .httpCache()") == true)
        // Nothing was sent, so no retry: one refusal, no attempt.
        #expect(error?.attempts.isEmpty == true)
    }

    @Test func aCacheGivenForTheCallOrClientWideHonoursThePolicy() async throws {
        let transport = MockTransport { request in
            (HTTPResponse(status: .ok, headerFields: ["Cache-Control": "max-age=60"], url: request.url), Data("x".utf8))
        }
        let bare = NetworkClient(configuration: .init(baseURL: URL(string: "https://api.test")!, transport: transport))
        let request = NetworkRequest<Data>(path: "/items")
        // Per call, beside the policy: the cache is in that call's chain, so `.offline` gets a 504 from it, unsent.
        let store = InMemoryHTTPCacheStore()
        let miss = try await expectNetworkError {
            try await bare.send(
                request, behavior: CombinedBehavior([.httpCache(store: store), .cachePolicy(.offline)]))
        }
        #expect(miss?.underlyingError is OnlyIfCachedMiss && transport.requestCount == 0)
        // Client-wide: stored once, then answered offline from the store.
        let cached = NetworkClient(
            configuration: .init(
                baseURL: URL(string: "https://api.test")!, transport: transport, behavior: .httpCache(store: store)))
        _ = try await cached.send(request)
        #expect(try await cached.send(request, behavior: .cachePolicy(.offline)) == Data("x".utf8))
        #expect(transport.requestCount == 1)
        // The cache removed for one call takes the policy's cache away with it.
        let error = try await expectNetworkError {
            try await cached.send(
                request, behavior: CombinedBehavior([.without(HTTPCacheBehavior.self), .cachePolicy(.offline)]))
        }
        #expect(error?.underlyingError is MissingHTTPCacheError && transport.requestCount == 1)
    }
}
