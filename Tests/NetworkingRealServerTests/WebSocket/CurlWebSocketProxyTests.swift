import Foundation
import Networking
import NetworkingCurl
import NetworkingTestSupport
import Testing

extension RealServerTests {
    /// `CurlTransport`'s WebSockets through an HTTP proxy: a `CONNECT` tunnel for `ws://` and `wss://`, as browsers
    /// open one, counted by `Tests/Servers/proxy_server.py`.
    @Suite struct CurlWebSocketProxyTests {
        static func echoesThroughTheProxy(_ base: URL, trust: ServerTrust = .system) async throws {
            let before = try await ProxyServer.stats()
            let transport = try CurlTransport(
                configuration: .init(serverTrust: trust, proxy: .url(try await ProxyServer.url())))
            let client = try loopbackClient(
                base, transport: transport, behavior: EmptyBehavior(), timeout: .seconds(10))
            let socket = try await client.webSocket(WebSocketRequest(path: "/echo"))
            try await socket.send(.text("through"))
            var messages = socket.messages.makeAsyncIterator()
            #expect(try await messages.next() == .text("through"))
            try await socket.close()
            let after = try await ProxyServer.stats()
            #expect(after.connects == before.connects + 1)
            #expect(after.targets.last == "\(base.host ?? ""):\(base.port ?? 0)")
        }

        @Test func aPlainWebSocketTunnelsThroughCONNECT() async throws {
            try await Self.echoesThroughTheProxy(try await WebSocketPeer.url())
        }

        @Test func aTLSWebSocketTunnelsThroughCONNECTWithTheTransportsTrust() async throws {
            let trust = ServerTrust(
                certificateAuthorities: [try RealServerTests.TLSTrustTests.testAuthority()],
                trustsSystemAuthorities: false)
            try await Self.echoesThroughTheProxy(try await WebSocketPeer.tlsURL(), trust: trust)
        }
    }
}
