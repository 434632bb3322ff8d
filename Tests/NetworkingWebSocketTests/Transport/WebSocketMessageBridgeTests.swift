import Foundation
import Testing

import Networking
import NetworkingCore
import NetworkingTestSupport
import NetworkingTesting
import NetworkingWebSocket

/// The bridge a transport whose connection speaks in messages (Apple's `URLSessionWebSocketTask`) is seen through:
/// the client's own connection code on a channel of messages, here a scripted one.
@Suite struct WebSocketMessageBridgeTests {
    /// A channel of messages: what it receives is scripted, what it is sent is recorded.
    final class ScriptedChannel: WebSocketMessageChannel, @unchecked Sendable {
        struct Recorded {
            var sent: [WebSocketMessage] = []
            var pings = 0
            var closes: [(WebSocketCloseCode?, Data)] = []
            var closeFrame: (code: WebSocketCloseCode?, reason: Data)?
        }
        let recorded = LockedBox(Recorded())
        private let incoming: AsyncThrowingStream<WebSocketMessage, any Error>
        let script: AsyncThrowingStream<WebSocketMessage, any Error>.Continuation

        init() {
            (incoming, script) = AsyncThrowingStream.makeStream()
        }

        func send(_ message: WebSocketMessage) async throws { recorded.withLock { $0.sent.append(message) } }

        func receive() async throws -> WebSocketMessage {
            var iterator = incoming.makeAsyncIterator()
            guard let message = try await iterator.next() else { throw URLError(.networkConnectionLost) }
            return message
        }

        func ping() async throws { recorded.withLock { $0.pings += 1 } }

        func close(code: WebSocketCloseCode?, reason: Data) {
            recorded.withLock { $0.closes.append((code, reason)) }
        }

        var closeFrame: (code: WebSocketCloseCode?, reason: Data)? { recorded.withLock { $0.closeFrame } }

        /// The server closes: its close frame, then the end of the messages.
        func serverCloses(_ code: WebSocketCloseCode, reason: String) {
            recorded.withLock { $0.closeFrame = (code, Data(reason.utf8)) }
            script.finish()
        }
    }

    /// A transport whose connections are the channel's, its `101` carrying the accept value of the client's key, as
    /// `URLSessionTransport` hands over what Apple's task verified.
    struct ChannelTransport: WebSocketTransport {
        let channel: ScriptedChannel
        func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
            throw TransportError(.other, "WebSockets only")
        }
        func openWebSocket(_ request: HTTPRequest) async throws -> WebSocketUpgrade {
            let key = request.headerFields[HTTPField.Name("Sec-WebSocket-Key")] ?? ""
            let response = HTTPResponse(
                status: .init(code: 101),
                headerFields: [
                    "Upgrade": "websocket", "Connection": "Upgrade",
                    "Sec-WebSocket-Accept": WebSocketHandshake.accept(forKey: key),
                ])
            return WebSocketUpgrade(switchingProtocols: response, stream: WebSocketMessageBridge(channel))
        }
    }

    static func socket(_ channel: ScriptedChannel) async throws -> WebSocket {
        let client = try makeClient(transport: ChannelTransport(channel: channel), clock: TestClock())
        return try await client.webSocket(WebSocketRequest(path: "/chat"))
    }

    @Test func messagesGoBothWaysAndTheServersCloseEndsThemWithItsCodeAndReason() async throws {
        let channel = ScriptedChannel()
        let socket = try await Self.socket(channel)
        try await socket.send(.text("hi"))
        try await socket.send(.binary(Data([1, 2, 3])))
        channel.script.yield(.text("hello"))
        channel.script.yield(.binary(Data(repeating: 7, count: 70_000)))
        channel.serverCloses(.init(rawValue: 4001), reason: "done")
        var received: [WebSocketMessage] = []
        for try await message in socket.messages { received.append(message) }
        #expect(received == [.text("hello"), .binary(Data(repeating: 7, count: 70_000))])
        #expect(socket.closeCode == WebSocketCloseCode(rawValue: 4001))
        #expect(socket.closeReason == "done")
        #expect(channel.recorded.withLock { $0.sent } == [.text("hi"), .binary(Data([1, 2, 3]))])
        try await socket.close()
    }

    @Test func theClientsPingGoesOutAsTheChannelsAndItsPongComesBack() async throws {
        let channel = ScriptedChannel()
        let socket = try await Self.socket(channel)
        try await socket.ping()
        #expect(channel.recorded.withLock { $0.pings } == 1)
        try await socket.close()
    }

    @Test func theClientsCloseClosesTheChannelWithItsCode() async throws {
        let channel = ScriptedChannel()
        let socket = try await Self.socket(channel)
        try await socket.close(.init(rawValue: 4002), reason: "leaving")
        let closes = channel.recorded.withLock { $0.closes }
        #expect(closes.first?.0 == WebSocketCloseCode(rawValue: 4002))
        #expect(closes.first?.1 == Data("leaving".utf8))
        #expect(socket.closeCode == WebSocketCloseCode(rawValue: 4002))
    }

    @Test func aChannelThatFailsWithoutAClosingHandshakeIs1006() async throws {
        let channel = ScriptedChannel()
        let socket = try await Self.socket(channel)
        channel.script.finish(throwing: URLError(.networkConnectionLost))
        let error = try await expectNetworkError { for try await _ in socket.messages {} }
        #expect(error?.kind == .transport(.connectionLost))
        #expect(socket.closeCode == .abnormalClosure)
    }
}
