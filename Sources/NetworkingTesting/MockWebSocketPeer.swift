import Foundation
import NetworkingCore
import NetworkingHTTP
import NetworkingWebSocket

/// The server's end of one connection a ``MockWebSocketServer`` accepted: what its script uses to send and receive,
/// and the record of what the client sent. It speaks RFC 6455 with the client's real framing (masks, fragments,
/// control frames, the closing handshake) over an in-memory connection, so the app's code is tested as it runs.
///
/// ```swift
/// let server = MockWebSocketServer { peer in
///     #expect(try await peer.receive() == .text("hi"))  // the client's first message
///     try await peer.send(.text("welcome"))
///     try await peer.close(.normalClosure, reason: "bye")
/// }
/// ```
public final class MockWebSocketPeer: Sendable {
    /// The handshake as the client sent it, after every behavior (its `Authorization`, say).
    public let request: HTTPRequest

    private struct Record {
        var messages: [WebSocketMessage] = []
        var pongs: [Data] = []
        var pings: [Data] = []
        var closeCode: WebSocketCloseCode??
        var closeReason: String?
        var closeSent = false
    }

    private let stream: MemoryByteStream
    private let inbound: LockedBox<WebSocketInbound>
    private let record = LockedBox(Record())

    package init(request: HTTPRequest, stream: MemoryByteStream, maximumMessageSize: Int) {
        self.request = request
        self.stream = stream
        self.inbound = LockedBox(WebSocketInbound(maximumMessageSize: maximumMessageSize, expectsMaskedFrames: true))
    }

    /// Every message the client sent on this connection, in order.
    public var receivedMessages: [WebSocketMessage] { record.withLock { $0.messages } }
    /// The payloads of the pongs the client sent (answers to ``ping(_:)``).
    public var receivedPongs: [Data] { record.withLock { $0.pongs } }
    /// The payloads of the pings the client sent (each answered with a pong).
    public var receivedPings: [Data] { record.withLock { $0.pings } }
    /// The code of the client's close frame (`WebSocketCloseCode/noStatusReceived` when it had none); `nil` before
    /// one came.
    public var receivedCloseCode: WebSocketCloseCode? {
        record.withLock { $0.closeCode.map { $0 ?? .noStatusReceived } }
    }
    /// The reason of the client's close frame; `nil` before one came.
    public var receivedCloseReason: String? { record.withLock { $0.closeReason } }

    /// Sends `message` as one frame.
    ///
    /// - Parameter message: The message.
    public func send(_ message: WebSocketMessage) async throws {
        switch message {
        case .text(let text): try await sendFrame(opcode: 0x1, payload: Data(text.utf8))
        case .binary(let data): try await sendFrame(opcode: 0x2, payload: data)
        }
    }

    /// Sends one frame as given, for a test of how the client takes a fragment, a control frame or a broken server:
    /// any opcode, FIN cleared, reserved bits set.
    ///
    /// - Parameters:
    ///   - opcode: The opcode's value.
    ///   - payload: The payload.
    ///   - fin: Whether the frame ends its message.
    ///   - reserved: The three reserved bits.
    public func sendFrame(opcode: UInt8, payload: Data, fin: Bool = true, reserved: UInt8 = 0) async throws {
        try await stream.write(
            WebSocketFrameEncoding.frame(opcode: opcode, payload: payload, fin: fin, reserved: reserved))
    }

    /// Sends a ping; the client's pong shows in ``receivedPongs`` once a ``receive()`` has read it.
    ///
    /// - Parameter payload: The ping's payload, at most 125 bytes.
    public func ping(_ payload: Data = Data()) async throws {
        try await sendFrame(opcode: 0x9, payload: payload)
    }

    /// The client's next message, answering its pings and recording its pongs on the way; `nil` once the client
    /// closed (its close frame is answered, and the connection closed, as a server does: RFC 6455 §7.1.1).
    ///
    /// - Returns: The message, or `nil` when the client closed.
    /// - Throws: When the client broke the protocol (the connection is then dropped).
    public func receive() async throws -> WebSocketMessage? {
        while true {
            let event: WebSocketInbound.Event?
            do {
                event = try inbound.withLock { try $0.next() }
            } catch {
                stream.close()
                throw error
            }
            guard let event else {
                guard let bytes = try await stream.read() else { return nil }
                inbound.withLock { $0.append(bytes) }
                continue
            }
            switch event {
            case .message(let message):
                record.withLock { $0.messages.append(message) }
                return message
            case .ping(let payload):
                record.withLock { $0.pings.append(payload) }
                try await sendFrame(opcode: 0xA, payload: payload)
            case .pong(let payload):
                record.withLock { $0.pongs.append(payload) }
            case .close(let code, let reason):
                let answer = record.withLock { record in
                    record.closeCode = .some(code)
                    record.closeReason = reason
                    defer { record.closeSent = true }
                    return !record.closeSent
                }
                if answer {
                    try? await sendFrame(opcode: 0x8, payload: WebSocketFrameEncoding.closePayload(code, reason: ""))
                }
                stream.close()
                return nil
            }
        }
    }

    /// Runs the closing handshake from the server's side: sends a close frame, reads until the client's answer
    /// (recording the messages before it), then closes the connection.
    ///
    /// - Parameters:
    ///   - code: The code; `WebSocketCloseCode/normalClosure` by default.
    ///   - reason: Why, in words.
    public func close(_ code: WebSocketCloseCode = .normalClosure, reason: String = "") async throws {
        let send = record.withLock { record in
            defer { record.closeSent = true }
            return !record.closeSent
        }
        if send { try await sendFrame(opcode: 0x8, payload: WebSocketFrameEncoding.closePayload(code, reason: reason)) }
        while try await receive() != nil {}
    }

    /// Closes the connection without a closing handshake, as a crashed server or a lost network does (the client
    /// sees 1006).
    public func drop() {
        stream.close()
    }
}
