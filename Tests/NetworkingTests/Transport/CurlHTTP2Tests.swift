import Foundation
import Networking
import Testing

extension RealServerTests {
    /// HTTP/2 on the libcurl transport, against nginx over TLS (`NginxHTTP2Server`), counted from nginx's log.
    @Suite struct CurlHTTP2Tests {
        static func client(_ version: CurlTransport.HTTPVersionPolicy, metrics: LockedBox<[AttemptMetrics]>)
            async throws -> (NetworkClient, NginxHTTP2Server)
        {
            let server = try await NginxHTTP2Server.shared.value
            let trust = ServerTrust(
                certificateAuthorities: [try RealServerTests.TLSTrustTests.testAuthority()],
                trustsSystemAuthorities: false)
            let transport = try CurlTransport(configuration: .init(serverTrust: trust, httpVersion: version))
            let client = try loopbackClient(
                URL(string: "https://127.0.0.1:\(server.port)")!, transport: transport,
                behavior: .metrics { metric in metrics.withLock { $0.append(metric) } }, timeout: .seconds(20))
            return (client, server)
        }

        @Test func oneConnectionCarriesAHundredConcurrentCalls() async throws {
            let metrics = LockedBox<[AttemptMetrics]>([])
            let (client, server) = try await Self.client(.automatic, metrics: metrics)
            let path = "/ok.json"
            let key = "h2-\(UUID().uuidString.prefix(8))"
            let before = try server.log().count
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<100 {
                    group.addTask {
                        try await client.response(
                            for: NetworkRequest<Data>(path: path, query: [URLQueryItem(name: "k", value: key)])
                        ).statusCode
                    }
                }
                for try await status in group { #expect(status == 200) }
            }
            // nginx writes its log line as each request ends: wait until all 100 are there.
            var entries = Array(try server.log().dropFirst(before))
            for _ in 0..<100 where entries.count < 100 {
                try await Task.sleep(for: .milliseconds(20))
                entries = Array(try server.log().dropFirst(before))
            }
            #expect(entries.count == 100)
            #expect(Set(entries.map(\.protocol)) == ["HTTP/2.0"])
            #expect(Set(entries.map(\.connection)).count == 1, "connections: \(Set(entries.map(\.connection)))")
            #expect(Set(metrics.current.compactMap(\.transport?.httpVersion)) == ["HTTP/2"])
        }

        @Test func http1CanBeForced() async throws {
            let metrics = LockedBox<[AttemptMetrics]>([])
            let (client, server) = try await Self.client(.http1_1, metrics: metrics)
            let before = try server.log().count
            _ = try await client.send(NetworkRequest<Data>(path: "/ok.json"))
            var entries = Array(try server.log().dropFirst(before))
            for _ in 0..<100 where entries.isEmpty {
                try await Task.sleep(for: .milliseconds(20))
                entries = Array(try server.log().dropFirst(before))
            }
            #expect(entries.map(\.protocol) == ["HTTP/1.1"])
            #expect(metrics.current.first?.transport?.httpVersion == "HTTP/1.1")
        }
    }
}
