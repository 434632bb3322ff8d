import Foundation
import Testing

import Networking
import NetworkingTestSupport
import NetworkingTesting

/// `URLSessionTransport` and WebSockets: on Linux it refuses at once, saying why.
@Suite struct URLSessionTransportWebSocketTests {
    // Linux only: FoundationNetworking's URLSessionWebSocketTask needs libcurl's WebSocket support (Debian's 7.88 has
    // none: tried, it fails with "WebSockets not supported by libcurl"). Apple platforms open the connection, tested
    // by the real-peer suite there.
    #if os(Linux)
        @Test func onLinuxAWebSocketIsRefusedAtOnceSayingWhyAndNamingTheRequest() async throws {
            let client = try makeClient(transport: URLSessionTransport(), clock: TestClock())
            let error = try await expectNetworkError { try await client.webSocket(WebSocketRequest(path: "/chat")) }
            #expect(error?.kind == .transport(.other))
            #expect(error?.webSocketError?.kind == .unsupportedTransport)
            #expect(error?.message.contains("WebSockets not supported by libcurl") == true)
            #expect(error?.message.contains("CurlTransport") == true)
            #expect(error?.requestName == "GET /chat")
            #expect(error.map { FailureClassification($0).kind } == .permanent)
        }
    #endif
}
