import Foundation
import NetworkingCore
import NetworkingHTTP

/// An open WebSocket connection (RFC 6455), from `NetworkClient/webSocket(_:behavior:)`: send text and binary
/// messages, receive them as an `AsyncSequence`, ping, and close with a code and a reason.
///
/// ```swift
/// let socket = try await client.webSocket(WebSocketRequest(path: "/chat"))
/// try await socket.send(.text("hello"))
/// for try await message in socket.messages {
///     print(message)
/// }
/// print("closed:", socket.closeCode as Any, socket.closeReason ?? "")
/// ```
/// - **Receiving.** ``messages`` has one reader. It ends when the server closes (its close frame came and every
///   message before it was read); it throws `NetworkError` when the connection fails: the server broke the protocol
///   (closed with 1002), sent text that is not UTF-8 (1007) or a message over the limit (1009), or the connection
///   was lost without a closing handshake (1006). ``WebSocketError`` behind it says which. Pings are answered
///   with pongs as they come; fragmented messages arrive whole.
/// - **Backpressure.** While the messages not yet read reach ``WebSocketRequest/bufferLimit``, the connection stops
///   reading the network, and TCP slows the server down: a slow reader costs memory within that limit.
/// - **Closing.** ``close(_:reason:)`` runs the closing handshake and returns when the connection is closed.
///   Cancelling the task that reads ``messages``, or dropping the last reference to the socket, closes it too, with
///   1001 (going away).
/// - **Sending.** ``send(_:)`` returns once the message is handed to the connection; every frame the client sends
///   is masked with a fresh random key (§5.3).
public final class WebSocket: Sendable {
    /// The server's `101 Switching Protocols`.
    public let response: HTTPResponse
    /// The subprotocol the server chose among those offered (``WebSocketRequest/subprotocols``); `nil` for none.
    public let subprotocol: String?
    /// The request's name, such as `GET /chat`, as errors and logs give it.
    public let requestName: String

    let connection: WebSocketConnection
    /// The handshake's response body as the chain returned it: kept, since the last copy going away ends it as
    /// cancelled, which closes the connection.
    private let lifetime: HTTPBody

    init(connection: WebSocketConnection, lifetime: HTTPBody, subprotocol: String?) {
        self.connection = connection
        self.lifetime = lifetime
        self.response = connection.settings.response
        self.subprotocol = subprotocol
        self.requestName = connection.settings.requestName
    }

    deinit {
        connection.startClose(.goingAway, reason: "")
    }

    /// The messages the server sends, in order; read them once.
    public var messages: Messages { Messages(connection: connection) }

    /// Sends `message`, as one frame.
    ///
    /// - Parameter message: The message.
    /// - Throws: `NetworkError` when the connection is closing, closed or failed (`WebSocketError/Kind/closed`,
    ///   `WebSocketError/Kind/connectionLost`).
    public func send(_ message: WebSocketMessage) async throws {
        let frame: Data
        switch message {
        case .text(let text): frame = connection.encode(.text, Data(text.utf8))
        case .binary(let data): frame = connection.encode(.binary, data)
        }
        try await connection.sendFrame(frame, what: "a message")
    }

    /// Sends a ping and waits for the server's pong (§5.5.2).
    ///
    /// - Throws: `NetworkError` when the connection closes before the pong; `CancellationError` when cancelled.
    public func ping() async throws {
        try await connection.ping()
    }

    /// Runs the closing handshake (§7.1.2) and returns once the connection is closed: the close frame goes after the
    /// messages already sent, the server answers and closes the connection, or ``WebSocketRequest/closeTimeout``
    /// passes and the client closes it. Messages that arrive meanwhile are dropped. Closing a closed socket does
    /// nothing.
    ///
    /// - Parameters:
    ///   - code: The code; ``WebSocketCloseCode/normalClosure`` by default. It must be one that may be sent
    ///     (``WebSocketCloseCode/canBeSent``).
    ///   - reason: Why, in words; cut to the 123 bytes a close frame has room for.
    /// - Throws: `NetworkError` of kind `invalidRequest` (`WebSocketError/Kind/invalidCloseCode`) for a code that may
    ///   not be sent, before anything is.
    public func close(_ code: WebSocketCloseCode = .normalClosure, reason: String = "") async throws {
        guard code.canBeSent else {
            throw connection.networkError(
                WebSocketError(
                    .invalidCloseCode, message: "the close code \(code) may not be sent (RFC 6455 §7.4)"))
        }
        connection.startClose(code, reason: WebSocketFrameEncoding.fittingCloseReason(reason))
        await connection.waitForEnd()
    }

    /// The code the connection closed with: the server's (1005 when its close frame had none), the one the client
    /// failed it with (1002, 1007, 1009), or 1006 when it ended without a closing handshake; `nil` while open.
    public var closeCode: WebSocketCloseCode? { connection.closeCode }

    /// The reason of the server's close frame; `nil` until it came.
    public var closeReason: String? { connection.closeReason }

    /// The messages of a ``WebSocket``, as an `AsyncSequence` with one reader.
    public struct Messages: AsyncSequence, Sendable {
        /// Each element is a whole message.
        public typealias Element = WebSocketMessage

        let connection: WebSocketConnection

        /// The iterator.
        public func makeAsyncIterator() -> Iterator { Iterator(connection: connection) }

        /// Reads the messages one at a time.
        public struct Iterator: AsyncIteratorProtocol {
            let connection: WebSocketConnection

            /// The next message, `nil` once the server closed.
            ///
            /// - Returns: The message, or `nil` at the end.
            /// - Throws: `NetworkError` when the connection failed; `CancellationError` when cancelled (which closes
            ///   the connection with 1001).
            public mutating func next() async throws -> WebSocketMessage? {
                try await connection.nextMessage()
            }
        }
    }
}
