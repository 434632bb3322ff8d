import Foundation
import Networking
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// Rules of the Conformance article on the wire: the cache over the run's transport (URLSession, then libcurl) and the fault server's
    /// `/cacheable`, counting what reaches the transport.
    @Suite struct HTTPCacheConformanceRealServerTests {
        static func client(
            _ transport: CountingTransport, onEvent: @escaping @Sendable (HTTPCacheEvent) -> Void = { _ in }
        ) async throws -> NetworkClient {
            NetworkClient(
                configuration: .init(
                    baseURL: try await FaultServer.url(), transport: transport,
                    behavior: .httpCache(onEvent: onEvent)))
        }

        @discardableResult static func get(
            _ client: NetworkClient, _ query: [String: String], headers: HTTPFields = [:]
        )
            async throws -> NetworkResponse<Data>
        {
            let items = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
            return try await client.response(
                for: NetworkRequest<Data>(path: "/cacheable", query: items, headers: headers))
        }

        /// RFC 9111 §4.1: two variants of one URL are kept; each is served.
        @Test func severalVariantsOfOneURLAreServedWithoutASecondSend() async throws {
            let transport = CountingTransport()
            let client = try await Self.client(transport)
            let query = ["key": FaultServer.newKey("variants"), "max_age": "60", "vary": "Accept-Language"]
            var bodies: [String] = []
            for language in ["en", "de", "en", "de"] {
                let response = try await Self.get(client, query, headers: ["Accept-Language": language])
                bodies.append(String(decoding: response.body, as: UTF8.self))
            }
            #expect(transport.sends == 2)
            #expect(bodies[0] == bodies[2] && bodies[1] == bodies[3] && bodies[0] != bodies[1])
        }

        /// RFC 5861 §3: the stale response is served at once; one revalidation follows in the background.
        @Test func staleWhileRevalidateRevalidatesInTheBackground() async throws {
            let transport = CountingTransport()
            let (events, continuation) = AsyncStream.makeStream(of: HTTPCacheEvent.Kind.self)
            let client = try await Self.client(transport) { continuation.yield($0.kind) }
            let query = [
                "key": FaultServer.newKey("swr"), "etag": "e1",
                "cache_control": "max-age=0, stale-while-revalidate=600",
            ]
            let first = try await Self.get(client, query)
            let stale = try await Self.get(client, query)
            #expect(HTTPCacheBehavior.outcome(of: stale.response) == .servedStale)
            #expect(stale.body == first.body)
            for await kind in events where kind == .revalidated { break }
            #expect(transport.statuses.current == [200, 304])
        }

        /// RFC 8246: a fresh immutable response answers a reload (`max-age=0`) without a send.
        @Test func anImmutableResponseIsNotRevalidatedOnAReload() async throws {
            let transport = CountingTransport()
            let client = try await Self.client(transport)
            let query = [
                "key": FaultServer.newKey("immutable"), "etag": "e1", "cache_control": "max-age=60, immutable",
            ]
            try await Self.get(client, query)
            let reload = try await Self.get(client, query, headers: ["Cache-Control": "max-age=0"])
            #expect(transport.sends == 1)
            #expect(HTTPCacheBehavior.outcome(of: reload.response) == .hit)
        }

        /// RFC 9111 §5.2.2.3: `must-understand` with an understood status overrides `no-store`.
        @Test func mustUnderstandStoresAnUnderstoodStatusDespiteNoStore() async throws {
            let transport = CountingTransport()
            let client = try await Self.client(transport)
            let query = [
                "key": FaultServer.newKey("must-understand"), "cache_control": "no-store, must-understand, max-age=60",
            ]
            try await Self.get(client, query)
            try await Self.get(client, query)
            #expect(transport.sends == 1)
        }

        /// RFC 9111 §5.2.1.7 and §5.2.1.2, offline-first: `only-if-cached` with nothing stored is a 504 and reaches
        /// no server; once stored, `CacheRequestPolicy.offline` answers from the store, stale or not, with no send.
        @Test func offlineRequestsAnswerFromTheStoreOrFailWithoutASend() async throws {
            let transport = CountingTransport()
            let client = try await Self.client(transport)
            let key = FaultServer.newKey("offline")
            let request = NetworkRequest<Data>(
                path: "/cacheable",
                query: [URLQueryItem(name: "key", value: key), URLQueryItem(name: "max_age", value: "0")])
            let error = try await expectNetworkError {
                try await client.send(request, behavior: .cachePolicy(.offline))
            }
            #expect(error?.kind == .unacceptableStatus(504) && error?.underlyingError is OnlyIfCachedMiss)
            #expect(transport.sends == 0)
            let live = try await client.response(for: request)
            let offline = try await client.response(for: request, behavior: .cachePolicy(.offline))
            #expect(HTTPCacheBehavior.outcome(of: offline.response) == .servedStale)
            #expect(offline.body == live.body)
            #expect(transport.sends == 1)
            #expect(try await FaultServer.hits(key).count == 1)
        }
    }
}
