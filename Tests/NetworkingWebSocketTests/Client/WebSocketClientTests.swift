import Foundation
import Testing

import Networking
import NetworkingTestSupport
import NetworkingTesting
import NetworkingWebSocket

/// `NetworkClient.webSocket` on the mock server: messages both ways, the closing handshake, and the handshake
/// through the behavior chain.
@Suite struct WebSocketClientTests {
    /// A client on `mock` whose clock never moves by itself: a closing handshake waits for the mock server, never
    /// for the close timeout, however slowly the server's task gets to run.
    static func client(_ mock: MockTransport, behavior: any RequestBehavior = EmptyBehavior()) throws -> NetworkClient {
        try makeClient(transport: mock, behavior: behavior, clock: TestClock())
    }

    /// Every message of `socket`, until it ends.
    static func collect(_ socket: WebSocket) async throws -> [WebSocketMessage] {
        var messages: [WebSocketMessage] = []
        for try await message in socket.messages { messages.append(message) }
        return messages
    }

    @Test func messagesGoBothWaysAndTheServersCloseEndsThem() async throws {
        let server = MockWebSocketServer { peer in
            #expect(try await peer.receive() == .text("hi"))
            try await peer.send(.text("hello"))
            try await peer.send(.binary(Data([0, 1, 2])))
            try await peer.close(.normalClosure, reason: "bye")
        }
        let client = try Self.client(MockTransport().stubWebSocket("/chat", server))
        let socket = try await client.webSocket(WebSocketRequest(path: "/chat"))
        #expect(socket.response.status.code == 101)
        #expect(socket.closeCode == nil)
        try await socket.send(.text("hi"))
        #expect(try await Self.collect(socket) == [.text("hello"), .binary(Data([0, 1, 2]))])
        #expect(socket.closeCode == .normalClosure)
        #expect(socket.closeReason == "bye")
        try await socket.close()  // returns once the server closed the connection
        // §5.5.1: the client echoed the server's code.
        #expect(server.connections.first?.receivedCloseCode == .normalClosure)
    }

    @Test func theClientsCloseRunsTheHandshakeWithItsCodeAndReason() async throws {
        let server = MockWebSocketServer { _ in }
        let client = try Self.client(MockTransport().stubWebSocket("/chat", server))
        let socket = try await client.webSocket(WebSocketRequest(path: "/chat"))
        try await socket.send(.text("last words"))
        try await socket.close(.init(rawValue: 4001), reason: "logged out")
        let peer = try #require(server.connections.first)
        #expect(peer.receivedMessages == [.text("last words")])
        #expect(peer.receivedCloseCode == .init(rawValue: 4001))
        #expect(peer.receivedCloseReason == "logged out")
        #expect(socket.closeCode == .init(rawValue: 4001))  // the server echoed it
        #expect(try await Self.collect(socket) == [])
        let error = try await expectNetworkError { try await socket.send(.text("too late")) }
        #expect(error?.webSocketError?.kind == .closed)
        #expect(error?.requestName == "GET /chat")
    }

    @Test func aCodeThatMayNotBeSentIsRefusedBeforeAnythingIs() async throws {
        let server = MockWebSocketServer { _ in }
        let client = try Self.client(MockTransport().stubWebSocket("/chat", server))
        let socket = try await client.webSocket(WebSocketRequest(path: "/chat"))
        let error = try await expectNetworkError { try await socket.close(.noStatusReceived) }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.webSocketError?.kind == .invalidCloseCode)
        try await socket.close()
        #expect(server.connections.first?.receivedCloseCode == .normalClosure)
    }

    @Test func pingsAreAnsweredAndAClientPingWaitsForItsPong() async throws {
        let server = MockWebSocketServer { peer in
            try await peer.ping(Data("are you there".utf8))
            try await peer.send(.text("after the ping"))
        }
        let client = try Self.client(MockTransport().stubWebSocket("/chat", server))
        let socket = try await client.webSocket(WebSocketRequest(path: "/chat"))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("after the ping"))
        try await socket.ping()
        try await socket.close()
        let peer = try #require(server.connections.first)
        #expect(peer.receivedPongs == [Data("are you there".utf8)])  // §5.5.2: the ping's payload
        #expect(peer.receivedPings.count == 1)
    }

    @Test func fragmentsArriveAsOneMessageWithAControlFrameBetweenThem() async throws {
        let server = MockWebSocketServer { peer in
            try await peer.sendFrame(opcode: 0x1, payload: Data("κό".utf8).prefix(3), fin: false)
            try await peer.ping()
            try await peer.sendFrame(opcode: 0x0, payload: Data("κό".utf8).dropFirst(3) + Data("σμε".utf8))
            try await peer.close()
        }
        let client = try Self.client(MockTransport().stubWebSocket("/chat", server))
        let socket = try await client.webSocket(WebSocketRequest(path: "/chat"))
        #expect(try await Self.collect(socket) == [.text("κόσμε")])
    }

    struct BreachCase: Sendable, CustomStringConvertible {
        let name: String
        let opcode: UInt8
        let payload: [UInt8]
        var reserved: UInt8 = 0
        let kind: WebSocketError.Kind
        let code: WebSocketCloseCode
        /// How the failure classifier reads it: a server that speaks bad WebSocket will do it again.
        var classification = FailureClassification.Kind.permanent
        var description: String { name }
    }

    @Test(arguments: [
        BreachCase(
            name: "§5.2: RSV1 set", opcode: 0x1, payload: Array("x".utf8), reserved: 0b100, kind: .protocolViolation,
            code: .protocolError),
        BreachCase(name: "§5.2: opcode 0x3", opcode: 0x3, payload: [], kind: .protocolViolation, code: .protocolError),
        BreachCase(
            name: "§8.1: text not UTF-8", opcode: 0x1, payload: [0xCE, 0xBA, 0xFF], kind: .invalidText,
            code: .invalidFramePayloadData),
        BreachCase(
            name: "§10.4: a message over the limit", opcode: 0x2, payload: Array(repeating: 7, count: 2048),
            kind: .messageTooBig, code: .messageTooBig),
    ])
    func aServerBreakingTheProtocolFailsTheConnectionWithItsCode(_ test: BreachCase) async throws {
        let server = MockWebSocketServer { peer in
            try await peer.send(.text("before"))
            try await peer.sendFrame(opcode: test.opcode, payload: Data(test.payload), reserved: test.reserved)
        }
        let client = try Self.client(MockTransport().stubWebSocket("/chat", server))
        var request = WebSocketRequest(path: "/chat")
        request.maximumMessageSize = 1024
        let socket = try await client.webSocket(request)
        var received: [WebSocketMessage] = []
        let error = try await expectNetworkError {
            for try await message in socket.messages { received.append(message) }
        }
        #expect(received == [.text("before")])  // what came before the breach is delivered first
        #expect(error?.webSocketError?.kind == test.kind)
        #expect(error?.webSocketError?.closeCode == test.code)
        #expect(error.map { FailureClassification($0).kind } == test.classification)
        #expect(error?.requestName == "GET /chat")
        try await socket.close()  // the closing handshake the failure began: returns once the server closed
        #expect(server.connections.first?.receivedCloseCode == test.code)
        #expect(socket.closeCode == test.code)
    }

    @Test func aConnectionLostWithoutAClosingHandshakeIs1006() async throws {
        let server = MockWebSocketServer { peer in
            try await peer.send(.text("one"))
            peer.drop()
        }
        let client = try Self.client(MockTransport().stubWebSocket("/chat", server))
        let socket = try await client.webSocket(WebSocketRequest(path: "/chat"))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("one"))
        let error = try await expectNetworkError { try await iterator.next() }
        #expect(error?.kind == .transport(.connectionLost))
        #expect(error?.webSocketError?.closeCode == .abnormalClosure)
        #expect(socket.closeCode == .abnormalClosure)
    }

    @Test func cancellingTheReadingTaskClosesWithGoingAway() async throws {
        let started = Gate()
        let server = MockWebSocketServer { _ in started.open() }
        let client = try Self.client(MockTransport().stubWebSocket("/chat", server))
        let socket = try await client.webSocket(WebSocketRequest(path: "/chat"))
        let reader = Task { try await Self.collect(socket) }
        await started.wait()
        reader.cancel()
        await #expect(throws: CancellationError.self) { try await reader.value }
        try await socket.close()  // the closing handshake the cancellation began: returns once the server closed
        #expect(server.connections.first?.receivedCloseCode == .goingAway)
    }
}
