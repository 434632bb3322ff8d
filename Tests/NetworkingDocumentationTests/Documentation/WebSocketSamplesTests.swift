// swift-format-ignore-file
import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

// README.md's and WebSockets.md's WebSocket sample, verbatim (indentation aside).
func joinRoom(_ room: String, client: NetworkClient) async throws -> [String] {
    let socket = try await client.webSocket(WebSocketRequest(path: "/rooms/\(room)", subprotocols: ["chat.v1"]))
    try await socket.send(.text("hello"))
    var lines: [String] = []
    for try await message in socket.messages {
        if case .text(let line) = message { lines.append(line) }
    }
    return lines
}

@Suite struct WebSocketSamplesTests {
    // WebSockets.md's test of the sample, verbatim: an authenticated connection through the client, on the mock.
    @Test func joiningARoomSaysHelloAndReadsUntilTheServerCloses() async throws {
        let server = MockWebSocketServer(subprotocol: "chat.v1") { peer in
            #expect(try await peer.receive() == .text("hello"))
            try await peer.send(.text("welcome"))
            try await peer.close(.normalClosure)
        }
        let client = NetworkClient(
            baseURL: URL(string: "https://chat.example.com")!,
            transport: MockTransport().stubWebSocket("/rooms/*", server),
            behavior: .authorization(.bearer, store: InMemoryTokenStore("t0ken")))
        #expect(try await joinRoom("42", client: client) == ["welcome"])
        #expect(server.receivedHandshakes.first?.headerFields["Authorization"] == "Bearer t0ken")
    }
}
