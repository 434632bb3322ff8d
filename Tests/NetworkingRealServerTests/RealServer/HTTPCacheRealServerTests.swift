import Foundation
import Networking
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that counts what reaches the real transport, and the statuses it got back.
final class CountingTransport: HTTPTransport {
    let inner = TestTransport.make()
    let statuses = LockedBox<[Int]>([])

    func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
        let (response, body) = try await inner.send(request)
        statuses.withLock { $0.append(response.status.code) }
        return (response, body)
    }

    var sends: Int { statuses.current.count }
}

extension RealServerTests {
    /// The HTTP cache against httpbin and the fault server: hits counted on the wire.
    @Suite struct HTTPCacheRealServerTests {
        static func client(
            _ base: URL, _ transport: any HTTPTransport, store: any HTTPCacheStore = InMemoryHTTPCacheStore()
        )
            throws -> NetworkClient
        {
            NetworkClient(
                configuration: .init(baseURL: base, transport: transport, behavior: .httpCache(store: store)))
        }

        @discardableResult
        static func get(
            _ client: NetworkClient, _ path: String, _ query: [String: String] = [:],
            headers: HTTPFields = [:]
        ) async throws -> NetworkResponse<Data> {
            let items = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
            return try await client.response(for: NetworkRequest<Data>(path: path, query: items, headers: headers))
        }

        @Test func httpbinCacheNIsAFreshHitWithNoSecondSend() async throws {
            let transport = CountingTransport()
            let client = try Self.client(try await HTTPBin.url(), transport)
            let first = try await Self.get(client, "/cache/60")
            let second = try await Self.get(client, "/cache/60")
            #expect(transport.sends == 1)
            #expect(second.body == first.body)
            #expect(HTTPCacheBehavior.outcome(of: second.response) == .hit)
        }

        @Test func httpbinCacheIsRevalidatedWithOne304() async throws {
            let transport = CountingTransport()
            let client = try Self.client(try await HTTPBin.url(), transport)
            let first = try await Self.get(client, "/cache")
            let second = try await Self.get(client, "/cache")
            #expect(transport.statuses.current == [200, 304])
            #expect(second.statusCode == 200)
            #expect(second.body == first.body)
            #expect(HTTPCacheBehavior.outcome(of: second.response) == .revalidated)
        }

        @Test func httpbinETagIsRevalidatedWithIfNoneMatch() async throws {
            let transport = CountingTransport()
            let client = try Self.client(try await HTTPBin.url(), transport)
            let first = try await Self.get(client, "/etag/abc123")
            #expect(first.response.headerFields["ETag"] == "abc123")
            let second = try await Self.get(client, "/etag/abc123")
            #expect(transport.statuses.current == [200, 304])
            #expect(second.body == first.body)
        }

        @Test(arguments: [("max-age=60", 1), ("no-store", 2), ("max-age=60, no-cache", 2)])
        func httpbinResponseHeadersDecideWhatIsStored(control: String, sends: Int) async throws {
            let transport = CountingTransport()
            let client = try Self.client(try await HTTPBin.url(), transport)
            try await Self.get(client, "/response-headers", ["Cache-Control": control])
            try await Self.get(client, "/response-headers", ["Cache-Control": control])
            #expect(transport.sends == sends)
        }

        @Test func faultServerCountsAFreshHitAsNoHit() async throws {
            let key = FaultServer.newKey("cache-fresh")
            let client = try Self.client(try await FaultServer.url(), TestTransport.make())
            try await Self.get(client, "/cacheable", ["key": key, "max_age": "60", "etag": "e1"])
            let second = try await Self.get(client, "/cacheable", ["key": key, "max_age": "60", "etag": "e1"])
            #expect(try await FaultServer.hits(key).count == 1)
            #expect(HTTPCacheBehavior.outcome(of: second.response) == .hit)
        }

        @Test func faultServerCountsARevalidationAsOneHitAnswered304() async throws {
            let key = FaultServer.newKey("cache-revalidate")
            let transport = CountingTransport()
            let client = try Self.client(try await FaultServer.url(), transport)
            let first = try await Self.get(client, "/cacheable", ["key": key, "etag": "e2"])
            let second = try await Self.get(client, "/cacheable", ["key": key, "etag": "e2"])
            let hits = try await FaultServer.hits(key)
            #expect(hits.count == 2)
            #expect(transport.statuses.current == [200, 304])
            #expect(hits.requests.last?.headers["if-none-match"] == "\"e2\"")
            #expect(second.body == first.body)
            #expect(HTTPCacheBehavior.outcome(of: second.response) == .revalidated)
        }

        @Test func faultServerVaryKeepsLanguagesApart() async throws {
            let key = FaultServer.newKey("cache-vary")
            let client = try Self.client(try await FaultServer.url(), TestTransport.make())
            let query = ["key": key, "max_age": "60", "vary": "Accept-Language"]
            let french = try await Self.get(client, "/cacheable", query, headers: ["Accept-Language": "fr"])
            try await Self.get(client, "/cacheable", query, headers: ["Accept-Language": "fr"])
            #expect(try await FaultServer.hits(key).count == 1)
            let english = try await Self.get(client, "/cacheable", query, headers: ["Accept-Language": "en"])
            #expect(try await FaultServer.hits(key).count == 2)
            #expect(String(decoding: french.body, as: UTF8.self).contains("\"fr\""))
            #expect(String(decoding: english.body, as: UTF8.self).contains("\"en\""))
        }

        @Test func aDiskStoreAnswersAfterARestartWithNoHit() async throws {
            let key = FaultServer.newKey("cache-disk")
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let base = try await FaultServer.url()
            let query = ["key": key, "max_age": "60"]
            try await Self.get(
                try Self.client(base, TestTransport.make(), store: DiskHTTPCacheStore(directory: folder)), "/cacheable",
                query)
            let restarted = try Self.client(base, TestTransport.make(), store: DiskHTTPCacheStore(directory: folder))
            let second = try await Self.get(restarted, "/cacheable", query)
            #expect(try await FaultServer.hits(key).count == 1)
            #expect(HTTPCacheBehavior.outcome(of: second.response) == .hit)
        }

        @Test func theTransportCachesNothingOfItsOwn() async throws {
            let key = FaultServer.newKey("no-url-cache")
            let client = try await FaultServer.client()
            for _ in 0..<2 {
                _ = try await client.response(
                    for: NetworkRequest<Data>(
                        path: "/cacheable",
                        query: [URLQueryItem(name: "key", value: key), URLQueryItem(name: "max_age", value: "60")]))
            }
            let hits = try await FaultServer.hits(key)
            #expect(hits.count == 2)
            #expect(hits.requests.allSatisfy { $0.headers["if-none-match"] == nil })
        }
    }
}
