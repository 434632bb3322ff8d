import Foundation
import Networking
import Testing
import NetworkingTestSupport

extension RealServerTests {
    /// nginx's gzip filter (`NginxHTTP2Server`'s `/gzip/`, over TLS, on the run's transport): a compressed `200`
    /// carries the weakened `W/"x"`, and nginx answers its revalidation with a `304` carrying the strong `"x"`. The
    /// cache takes that 304 for the response it asked about (weak comparison), as browsers do, instead of fetching
    /// the whole body again at every revalidation. Counted from nginx's log of that location.
    @Suite struct HTTPCacheNginxGzipTests {
        @Test func aRevalidationOfAGzippedResponseCostsNoBodyOnEitherTransport() async throws {
            let server = try await NginxHTTP2Server.shared.value
            let (events, continuation) = AsyncStream.makeStream(of: HTTPCacheEvent.Kind.self)
            let client = try loopbackClient(
                URL(string: "https://127.0.0.1:\(server.port)")!,
                transport: try RealServerTests.TLSTrustTests.trustingTransport(),
                behavior: .httpCache { continuation.yield($0.kind) }, timeout: .seconds(20))
            let before = try server.gzipLog().count
            var bodies: [Data] = []
            for _ in 0..<4 {
                bodies.append(try await client.send(NetworkRequest<Data>(path: NginxHTTP2Server.gzipPath)))
            }
            continuation.finish()
            var kinds: [HTTPCacheEvent.Kind] = []
            for await kind in events where kind != .ignoredHeader { kinds.append(kind) }
            // nginx writes a log line as each request ends.
            var entries = Array(try server.gzipLog().dropFirst(before))
            for _ in 0..<100 where entries.count < 4 {
                try await Task.sleep(for: .milliseconds(20))
                entries = Array(try server.gzipLog().dropFirst(before))
            }
            let fullBodies = entries.filter { $0.status == 200 }
            #expect(fullBodies.count == 1, "full-body fetches: \(entries)")
            #expect(fullBodies.first?.coding == "gzip", "the transport asked for gzip and nginx compressed")
            #expect(entries.filter { $0.status == 304 }.count == 3, "revalidations answered 304: \(entries)")
            #expect(kinds.filter { $0 == .revalidated }.count == 3, "cache events: \(kinds)")
            #expect(Set(bodies).count == 1 && (bodies.first?.count ?? 0) > 5_000, "the same decoded JSON each time")
        }
    }
}
