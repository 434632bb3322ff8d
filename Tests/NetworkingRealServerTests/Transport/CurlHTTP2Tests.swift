import Foundation
import Networking
import NetworkingCurl
import NetworkingTesting
import Testing
import NetworkingTestSupport

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

extension RealServerTests.CurlHTTP2Tests {
    @Test func thePinOfTheServersKeyIsTrustedAndAnotherRefusedBeforeAnyRequest() async throws {
        let server = try await NginxHTTP2Server.shared.value
        let pem = try String(contentsOf: server.directory.appendingPathComponent("leaf.pem"), encoding: .utf8)
        let leaf = try #require(ServerTrust.certificates(pem: pem).first)
        let pin = try #require(PublicKeyPin(certificate: leaf))
        let wrong = try #require(PublicKeyPin("sha256/" + Data(repeating: 9, count: 32).base64EncodedString()))
        let authority = try RealServerTests.TLSTrustTests.testAuthority()
        func send(pinning pins: Set<PublicKeyPin>, path: String = "/ok.json") async throws -> Int {
            let trust = ServerTrust(
                certificateAuthorities: [authority], trustsSystemAuthorities: false, pinnedKeys: pins)
            let client = try loopbackClient(
                URL(string: "https://127.0.0.1:\(server.port)")!,
                transport: try CurlTransport(configuration: .init(serverTrust: trust)),
                behavior: .retry(clock: TestClock()),
                timeout: .seconds(10))
            return try await client.response(for: NetworkRequest<Data>(path: path)).statusCode
        }
        #expect(try await send(pinning: [pin]) == 200)
        #expect(try await send(pinning: [wrong, pin]) == 200)
        // A path of its own: the server is shared with the suite's other tests, which log lines of their own.
        let refusedPath = "/refused-\(UUID().uuidString).json"
        let error = try await expectNetworkError { try await send(pinning: [wrong], path: refusedPath) }
        #expect(error?.kind == .transport(.secureConnectionFailed), "got \(String(describing: error))")
        #expect(error?.transportError?.secureConnectionFailure == .certificate)
        #expect(try server.log().contains { $0.path == refusedPath } == false, "the refused request reached nginx")
    }
}

extension RealServerTests.CurlHTTP2Tests {
    @Test func aServerAskingForAClientCertificateGetsTheConfiguredOne() async throws {
        let server = try await NginxHTTP2Server.shared.value
        let authority = try RealServerTests.TLSTrustTests.testAuthority()
        let identity = CurlTransport.ClientIdentity(
            certificatePEM: try Data(contentsOf: server.directory.appendingPathComponent("client.pem")),
            privateKeyPEM: try Data(contentsOf: server.directory.appendingPathComponent("client.key")))
        func status(_ identity: CurlTransport.ClientIdentity?) async throws -> Int {
            let trust = ServerTrust(certificateAuthorities: [authority], trustsSystemAuthorities: false)
            let client = try loopbackClient(
                URL(string: "https://127.0.0.1:\(server.mutualPort)")!,
                transport: try CurlTransport(configuration: .init(serverTrust: trust, clientIdentity: identity)),
                behavior: EmptyBehavior(), timeout: .seconds(10))
            let request = NetworkRequest<Data>(path: "/ok.json", acceptableStatusCodes: Set(200..<600))
            return try await client.response(for: request).statusCode
        }
        #expect(try await status(identity) == 200)
        // nginx answers a connection without a certificate with 400 ("No required SSL certificate was sent").
        #expect(try await status(nil) == 400)
    }
}
