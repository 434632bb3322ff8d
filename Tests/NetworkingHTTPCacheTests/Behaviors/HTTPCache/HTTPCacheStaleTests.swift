import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

/// `stale-while-revalidate` (RFC 5861 §3) with the background revalidation held at a gate: stale answers while it
/// runs start no other one.
@Suite struct HTTPCacheStaleTests {
    @Test func staleAnswersDuringABackgroundRevalidationStartNoOther() async throws {
        let gate = Gate()
        let clock = TestClock(mode: .manual)
        let control = "max-age=10, stale-while-revalidate=60"
        let transport = MockTransport { request in
            if request.headerFields.contains("If-None-Match") {
                await gate.wait()
                return (HTTPResponse(status: .init(code: 304), headerFields: ["Cache-Control": control]), Data())
            }
            let fields: HTTPFields = ["Cache-Control": control, "ETag": "\"v1\""]
            return (HTTPResponse(status: .init(code: 200), headerFields: fields), Data("body".utf8))
        }
        let (events, continuation) = AsyncStream.makeStream(of: HTTPCacheEvent.Kind.self)
        let client = NetworkClient(
            configuration: .init(
                baseURL: URL(string: "https://api.test")!, transport: transport,
                behavior: .httpCache(clock: clock) { continuation.yield($0.kind) }, clock: clock))
        let request = NetworkRequest<Data>(path: "/items")
        _ = try await client.response(for: request)
        clock.advance(by: .seconds(15))
        for _ in 0..<3 {
            let stale = try await client.response(for: request)
            #expect(HTTPCacheBehavior.outcome(of: stale.response) == .servedStale)
            #expect(stale.body == Data("body".utf8))
        }
        #expect(await eventually { transport.requestCount == 2 })
        gate.open()
        for await kind in events where kind == .revalidated { break }
        let fresh = try await client.response(for: request)
        #expect(HTTPCacheBehavior.outcome(of: fresh.response) == .hit)
        #expect(transport.requestCount == 2)
    }
}
