import Foundation
import Networking
import NetworkingCurl
import NetworkingTesting
import Testing
import NetworkingTestSupport

extension RealServerTests {
    /// A server that demands a client certificate (the fault server's mutual-TLS listeners, TLS 1.3 only and TLS 1.2
    /// only, trusting the run's authority) and a client that gives none, or one the authority did not sign. Under
    /// TLS 1.3 the server's refusal is an alert that reaches the client after its side of the handshake is done, on
    /// the first read: it must still read as a failed handshake, never as a lost connection, and never be retried.
    /// Each test counts the connections the listener accepted.
    @Suite struct TLSClientCertificateTests {
        /// What the client offers: nothing, or (on libcurl, the transport that takes an identity) an identity the
        /// server's authority did not sign.
        static let offers: [String] =
            TestTransport.current == .curl ? ["no identity", "a stranger's identity"] : ["no identity"]

        static func transport(offering offer: String, from stats: FaultServer.TLSStats) throws -> any HTTPTransport {
            let trust = ServerTrust(
                certificateAuthorities: [try TLSTrustTests.testAuthority()], trustsSystemAuthorities: false)
            guard TestTransport.current == .curl else { return try TLSTrustTests.trustingTransport() }
            let identity = offer == "no identity" ? nil : Self.identity(try #require(stats.identities).stranger)
            return try CurlTransport(configuration: .init(serverTrust: trust, clientIdentity: identity))
        }

        static func identity(_ identity: FaultServer.TLSStats.Identity) -> CurlTransport.ClientIdentity {
            CurlTransport.ClientIdentity(
                certificatePEM: Data(identity.certificate.utf8), privateKeyPEM: Data(identity.key.utf8))
        }

        @Test(arguments: [true, false], offers)
        func aRefusedClientCertificateIsAFailedHandshakeSentOnceNeverRetried(tls13: Bool, offer: String) async throws {
            let before = try await FaultServer.mutualTLSStats(tls13: tls13)
            let key = FaultServer.newKey("tls-mutual")
            let counter = AttemptCounter()
            let client = try loopbackClient(
                URL(string: "https://127.0.0.1:\(before.port)")!,
                transport: try Self.transport(offering: offer, from: before),
                behavior: CombinedBehavior([.retry(.default, clock: TestClock()), counter]), timeout: .seconds(10))
            let error = try await expectNetworkError {
                try await client.send(NetworkRequest<Data>(path: "/ok", query: Faults.query(key)))
            }
            // A handshake failure on libcurl, read from its words (the TLS 1.3 alert comes as a receive error). Apple's
            // loader names the refusal itself: at least a transport error there, retried as its code says, and no
            // request reaching the server.
            #expect(
                TestEngine.onLibcurl(
                    error?.kind == .transport(.secureConnectionFailed)
                        && error?.transportError?.secureConnectionFailure == .handshake,
                    elseAtLeast: Faults.transportCode(error) != nil),
                "got \(String(describing: error))")
            let attempts = TestEngine.attempts(onLibcurl: 1, after: error, budget: RetrySettings.defaultMaximumAttempts)
            #expect(counter.sent == attempts)
            #expect(try await FaultServer.hits(key).count == 0)
            let after = try await FaultServer.mutualTLSStats(tls13: tls13)
            #expect(after.connections - before.connections == attempts)
        }

        /// The control: the same listener answers a client whose identity its authority signed (libcurl only: the
        /// Foundation transport takes no client identity, so the run on it reports this test as skipped).
        @Test(.enabled(if: TestTransport.current == .curl), arguments: [true, false])
        func anIdentityTheServersAuthoritySignedIsAccepted(tls13: Bool) async throws {
            let before = try await FaultServer.mutualTLSStats(tls13: tls13)
            let key = FaultServer.newKey("tls-mutual-signed")
            let trust = ServerTrust(
                certificateAuthorities: [try TLSTrustTests.testAuthority()], trustsSystemAuthorities: false)
            let identity = Self.identity(try #require(before.identities).signed)
            let client = try loopbackClient(
                URL(string: "https://127.0.0.1:\(before.port)")!,
                transport: try CurlTransport(configuration: .init(serverTrust: trust, clientIdentity: identity)),
                behavior: EmptyBehavior(), timeout: .seconds(10))
            let response = try await client.response(for: NetworkRequest<Data>(path: "/ok", query: Faults.query(key)))
            #expect(response.statusCode == 200)
            #expect(try await FaultServer.hits(key).count == 1)
        }
    }
}

extension RealServerTests.TLSClientCertificateTests {
    /// A TLS connection the server closes without its closing alert (the trusted listener closes every connection
    /// so) is a lost connection in the middle of a body, as on plain HTTP, not a TLS failure: a GET is retried to
    /// its budget. A body framed by the end of the connection ends there and is read whole, as libcurl reads it.
    @Test func aTLSConnectionClosedWithoutItsAlertMidBodyIsALostConnectionRetriedForAGET() async throws {
        let stats = try await FaultServer.tlsStats(trusted: true)
        let key = FaultServer.newKey("tls-unclean")
        let counter = AttemptCounter()
        let client = try loopbackClient(
            URL(string: "https://127.0.0.1:\(stats.port)")!,
            transport: try RealServerTests.TLSTrustTests.trustingTransport(),
            behavior: CombinedBehavior([.retry(.default, clock: TestClock()), counter]), timeout: .seconds(10))
        let error = try await expectNetworkError {
            try await client.send(NetworkRequest<Data>(path: "/close-mid-body", query: Faults.query(key)))
        }
        // libcurl's "unexpected eof" is a lost connection. Apple's loader may call the missing alert a TLS failure:
        // at least a transport error there, retried as its code says; and a body framed by the close either whole
        // or refused, never cut.
        #expect(
            TestEngine.onLibcurl(
                error?.kind == .transport(.connectionLost), elseAtLeast: Faults.transportCode(error) != nil),
            "got \(String(describing: error))")
        let attempts = TestEngine.attempts(onLibcurl: 3, after: error, budget: RetrySettings.defaultMaximumAttempts)
        #expect(counter.sent == attempts)
        #expect(try await FaultServer.hits(key).count == attempts)
        let framedByClose = try await outcome {
            try await client.send(NetworkRequest<Data>(path: "/no-length-close", query: Faults.query(key + "-eof")))
        }
        #expect(
            TestEngine.onLibcurl(
                framedByClose.value?.isEmpty == false,
                elseAtLeast: framedByClose.value == Data("body framed by connection close".utf8)
                    || Faults.transportCode(framedByClose.error) != nil),
            "got \(String(describing: framedByClose))")
        #expect(try await FaultServer.hits(key + "-eof").count == 1)
    }
}
