import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// TLS with a certificate authority made for the run (`Tests/Servers/with_test_ca.sh`, which `make test` runs
    /// the tests under): a server it signed is reached, an https page that redirects to http is refused, and a
    /// trust policy this platform cannot apply refuses before any connection. Each test counts what the fault
    /// server's trusted TLS listener saw.
    @Suite struct TLSTrustTests {
        static func stats() async throws -> FaultServer.TLSStats {
            try await FaultServer.tlsStats(trusted: true)
        }

        /// The run's authority, DER-encoded: the tests fail when the run has none (they were not started by
        /// `make test`).
        static func testAuthority() throws -> Data {
            let directory = try #require(
                ProcessInfo.processInfo.environment["NETWORKING_TEST_CA_DIR"],
                "run the tests through `make test`: it makes the run's certificate authority")
            let pem = try String(contentsOfFile: directory + "/ca.pem", encoding: .utf8)
            return try #require(ServerTrust.certificates(pem: pem).first)
        }

        /// A transport that trusts the run's authority: through ``ServerTrust`` on Apple platforms and on libcurl
        /// (there, the authority alone, from memory); on Linux's URLSession through the system bundle, the one way
        /// FoundationNetworking can be told (the test runs in a namespace where the bundle holds it).
        static func trustingTransport() throws -> any HTTPTransport {
            let authority = try testAuthority()
            if TestTransport.current == .curl {
                return TestTransport.make(
                    serverTrust: ServerTrust(certificateAuthorities: [authority], trustsSystemAuthorities: false))
            }
            guard ServerTrust.isSupported else { return TestTransport.make() }
            return TestTransport.make(serverTrust: ServerTrust(certificateAuthorities: [authority]))
        }

        @Test func aServerSignedByATrustedAuthorityAnswers() async throws {
            let before = try await Self.stats()
            let key = FaultServer.newKey("tls-trusted")
            let client = try loopbackClient(
                URL(string: "https://127.0.0.1:\(before.port)")!, transport: try Self.trustingTransport(),
                behavior: EmptyBehavior(), timeout: .seconds(10))
            let response = try await client.response(for: NetworkRequest<Data>(path: "/ok", query: Faults.query(key)))
            #expect(response.statusCode == 200)
            #expect(try await FaultServer.hits(key).count == 1)
            let after = try await Self.stats()
            #expect(after.handshakes.ok - before.handshakes.ok >= 1)
            #expect(after.handshakes.failed == before.handshakes.failed)
        }

        @Test func anHTTPSPageRedirectingToHTTPIsRefusedAndTheHTTPTargetNeverHit() async throws {
            let stats = try await Self.stats()
            let key = FaultServer.newKey("tls-downgrade")
            let plain = try await FaultServer.url()
            let target = "\(plain.absoluteString)/ok?key=\(key)-target"
            let counter = AttemptCounter()
            let client = try loopbackClient(
                URL(string: "https://127.0.0.1:\(stats.port)")!, transport: try Self.trustingTransport(),
                behavior: CombinedBehavior([.retry(.default, clock: TestClock()), counter]), timeout: .seconds(10))
            let error = try await expectNetworkError {
                try await client.send(
                    NetworkRequest<Data>(
                        path: "/redirect-to", query: Faults.query(key, ["url": target, "status": "302"])))
            }
            #expect(error?.kind == .transport(.redirectRefused), "got \(String(describing: error))")
            #expect(error?.message.contains("from https to http") == true)
            #expect(counter.sent == 1)
            #expect(try await FaultServer.hits(key).count == 1)
            #expect(try await FaultServer.hits("\(key)-target").count == 0)
        }

        /// A public root of the system's bundle: an authority that did not sign the test server.
        static func anotherAuthority() throws -> Data {
            // Debian and Ubuntu's bundle, then macOS's (the same public roots, as PEM).
            let path = try #require(
                ["/etc/ssl/certs/ca-certificates.crt", "/etc/ssl/cert.pem"].first {
                    FileManager.default.fileExists(atPath: $0)
                })
            let bundle = try String(contentsOfFile: path, encoding: .utf8)
            let run = try testAuthority()
            return try #require(ServerTrust.certificates(pem: bundle).first { $0 != run })
        }

        /// The run's authority is installed as a system one, in the bundle and in the authority directory
        /// (`with_test_ca.sh`): a policy that leaves the system's authorities out must refuse a server it signed,
        /// whatever the engine reads by default (libcurl on Debian also reads /etc/ssl/certs as a directory).
        @Test(arguments: ["another authority", "no authority"])
        func aPolicyWithoutTheSystemsAuthoritiesRefusesAServerOneOfThemSigned(policy: String) async throws {
            let before = try await Self.stats()
            let key = FaultServer.newKey("tls-no-system")
            let own = policy == "no authority" ? [] : [try Self.anotherAuthority()]
            let client = try loopbackClient(
                URL(string: "https://127.0.0.1:\(before.port)")!,
                transport: TestTransport.make(
                    serverTrust: ServerTrust(certificateAuthorities: own, trustsSystemAuthorities: false)),
                behavior: EmptyBehavior(), timeout: .seconds(10))
            let error = try await expectNetworkError {
                try await client.send(NetworkRequest<Data>(path: "/ok", query: Faults.query(key)))
            }
            // every engine: the policy's own refusal (ServerTrust, checked by the transport on Apple's loader and
            // on libcurl), or the system's bundle missing the authority on Linux's URLSession.
            #expect(error?.kind == .transport(.secureConnectionFailed), "got \(String(describing: error))")
            #expect(try await FaultServer.hits(key).count == 0)
            if TestTransport.current == .curl {
                // libcurl only: refused on the certificate, after the server's hello; the server's own count of
                // failed handshakes is not read here, as it may be updated after the client has its error.
                #expect(error?.transportError?.secureConnectionFailure == .certificate)
            }
        }

        @Test func aPolicyWithAPinNoCertificateCarriesIsRefusedOnceWithoutRetry() async throws {
            // On Apple platforms and on libcurl the handshake completes and the pin check refuses the chain; on
            // Linux's URLSession, where a pin cannot be checked, the transport refuses before connecting. Either way: no request reaches the
            // server, the error is a refused certificate, and retry does not ask again.
            let before = try await Self.stats()
            let key = FaultServer.newKey("tls-pin")
            let wrongPin = try #require(PublicKeyPin("sha256/" + Data(repeating: 7, count: 32).base64EncodedString()))
            let policy = ServerTrust(certificateAuthorities: [try Self.testAuthority()], pinnedKeys: [wrongPin])
            let counter = AttemptCounter()
            let client = try loopbackClient(
                URL(string: "https://127.0.0.1:\(before.port)")!,
                transport: TestTransport.make(serverTrust: policy),
                behavior: CombinedBehavior([.retry(.default, clock: TestClock()), counter]), timeout: .seconds(10))
            let error = try await expectNetworkError {
                try await client.send(NetworkRequest<Data>(path: "/ok", query: Faults.query(key)))
            }
            // every engine: the pin check is the transport's own (before connecting on Linux's URLSession).
            #expect(error?.kind == .transport(.secureConnectionFailed), "got \(String(describing: error))")
            #expect(error?.transportError?.secureConnectionFailure == .certificate)
            #expect(counter.sent == 1)
            #expect(try await FaultServer.hits(key).count == 0)
            if !ServerTrust.isSupported, TestTransport.current == .urlSession {
                #expect(error?.message.contains("nothing was sent") == true)
                #expect(try await Self.stats().connections == before.connections)
            }
        }
    }
}
