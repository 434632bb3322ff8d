import Foundation
import Networking
import NetworkingCurl
import Testing
import NetworkingTestSupport

extension RealServerTests {
    /// The libcurl transport's proxy settings against `Tests/Servers/proxy_server.py`, which counts what it carries.
    @Suite struct CurlProxyTests {
        static func client(_ proxy: CurlTransport.ProxySettings, base: URL? = nil) async throws -> NetworkClient {
            let url: URL
            if let base { url = base } else { url = try await FaultServer.url() }
            return try loopbackClient(
                url,
                transport: try CurlTransport(configuration: .init(proxy: proxy)), behavior: EmptyBehavior(),
                timeout: .seconds(10))
        }

        @Test func aPlainRequestGoesThroughTheProxy() async throws {
            let key = FaultServer.newKey("proxy-plain")
            let before = try await ProxyServer.stats()
            let client = try await Self.client(.url(try await ProxyServer.url()))
            let echo = try await client.send(NetworkRequest<FaultEcho>(path: "/echo", query: Faults.query(key)))
            #expect(echo.method == "GET")
            let after = try await ProxyServer.stats()
            #expect(after.forwards == before.forwards + 1)
            #expect(after.targets.last?.contains(key) == true)
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func anHTTPSRequestTunnelsThroughCONNECT() async throws {
            let tls = try await FaultServer.tlsStats(trusted: true)
            let key = FaultServer.newKey("proxy-connect")
            let before = try await ProxyServer.stats()
            let trust = ServerTrust(
                certificateAuthorities: [try RealServerTests.TLSTrustTests.testAuthority()],
                trustsSystemAuthorities: false)
            let transport = try CurlTransport(
                configuration: .init(serverTrust: trust, proxy: .url(try await ProxyServer.url())))
            let client = try loopbackClient(
                URL(string: "https://127.0.0.1:\(tls.port)")!, transport: transport, behavior: EmptyBehavior(),
                timeout: .seconds(10))
            let response = try await client.response(for: NetworkRequest<Data>(path: "/ok", query: Faults.query(key)))
            #expect(response.statusCode == 200)
            let after = try await ProxyServer.stats()
            #expect(after.connects == before.connects + 1)
            #expect(after.targets.last == "127.0.0.1:\(tls.port)")
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func aBypassedHostIsReachedDirectly() async throws {
            let key = FaultServer.newKey("proxy-bypass")
            let before = try await ProxyServer.stats()
            let client = try await Self.client(.url(try await ProxyServer.url(), bypass: ["127.0.0.1"]))
            _ = try await client.send(NetworkRequest<FaultEcho>(path: "/echo", query: Faults.query(key)))
            let after = try await ProxyServer.stats()
            #expect(after.forwards == before.forwards)
            #expect(after.connects == before.connects)
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func proxyCredentialsAreSentAndNeverShown() async throws {
            let key = FaultServer.newKey("proxy-auth")
            var components = URLComponents(
                url: try await ProxyServer.url(credentials: true), resolvingAgainstBaseURL: false)!
            components.user = "user"
            components.password = "secret"
            let client = try await Self.client(.url(components.url!))
            _ = try await client.send(NetworkRequest<FaultEcho>(path: "/echo", query: Faults.query(key)))
            #expect(try await FaultServer.hits(key).count == 1)
            // A refused proxy: the error names the failure, never the password.
            components.password = "wrong"
            let refused = try await Self.client(.url(components.url!))
            let error = try await expectNetworkError {
                try await refused.send(NetworkRequest<FaultEcho>(path: "/echo", query: Faults.query(key)))
            }
            #expect(error != nil)
            #expect(!"\(String(describing: error))".contains("wrong"))
            #expect(try await FaultServer.hits(key).count == 1)
        }
    }
}
