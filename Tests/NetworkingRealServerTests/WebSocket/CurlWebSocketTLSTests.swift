import Foundation
import Networking
import NetworkingCurl
import NetworkingTestSupport
import Testing

extension RealServerTests {
    /// `CurlTransport`'s WebSocket connections get the TLS settings of its HTTP requests (the same `CurlSettings`):
    /// a client identity for a server demanding one, and key pins. The fault server's mutual-TLS listener answers the
    /// handshake with a plain `200`: reaching it proves the TLS connection was made, the identity shown.
    @Suite struct CurlWebSocketTLSTests {
        static func client(port: Int, identity: FaultServer.TLSStats.Identity?, pins: Set<PublicKeyPin> = [])
            throws -> NetworkClient
        {
            let trust = ServerTrust(
                certificateAuthorities: [try TLSTrustTests.testAuthority()], trustsSystemAuthorities: false,
                pinnedKeys: pins)
            let transport = try CurlTransport(
                configuration: .init(
                    serverTrust: trust, clientIdentity: identity.map(TLSClientCertificateTests.identity)))
            return try loopbackClient(
                URL(string: "https://127.0.0.1:\(port)")!, transport: transport, behavior: EmptyBehavior(),
                timeout: .seconds(10))
        }

        @Test func aServerDemandingACertificateGetsTheTransportsIdentity() async throws {
            let stats = try await FaultServer.mutualTLSStats(tls13: true)
            let key = FaultServer.newKey("ws-mutual")
            let signed = try #require(stats.identities).signed
            let client = try Self.client(port: stats.port, identity: signed)
            let error = try await expectNetworkError {
                try await client.webSocket(WebSocketRequest(path: "/ok", query: Faults.query(key)))
            }
            #expect(error?.kind == .unacceptableStatus(200))  // answered over TLS: not a WebSocket server
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func withoutAnIdentityTheHandshakeFailsInTLS() async throws {
            let stats = try await FaultServer.mutualTLSStats(tls13: true)
            let key = FaultServer.newKey("ws-mutual-none")
            let client = try Self.client(port: stats.port, identity: nil)
            let error = try await expectNetworkError {
                try await client.webSocket(WebSocketRequest(path: "/ok", query: Faults.query(key)))
            }
            #expect(error?.kind == .transport(.secureConnectionFailed))
            #expect(try await FaultServer.hits(key).count == 0)
        }

        @Test func aPinTheServersKeyDoesNotMatchFailsTheTLSHandshake() async throws {
            let stats = try await FaultServer.tlsStats(trusted: true)
            let wrongPin = try #require(PublicKeyPin("sha256/" + Data(repeating: 7, count: 32).base64EncodedString()))
            let client = try Self.client(port: stats.port, identity: nil, pins: [wrongPin])
            let error = try await expectNetworkError { try await client.webSocket(WebSocketRequest(path: "/ok")) }
            #expect(error?.kind == .transport(.secureConnectionFailed))
            #expect(error?.transportError?.secureConnectionFailure == .certificate)
        }
    }
}
