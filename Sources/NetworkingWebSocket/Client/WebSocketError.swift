import Foundation
import NetworkingCore

/// What went wrong with a WebSocket, beyond what `NetworkError`'s kind says: the `underlyingError` of the
/// `NetworkError` that `NetworkClient/webSocket(_:behavior:)` and a ``WebSocket``'s operations throw (read it with
/// `NetworkError/webSocketError`).
///
/// ```swift
/// let socket = try await client.webSocket(WebSocketRequest(path: "/chat"))
/// do {
///     for try await message in socket.messages { handle(message) }
/// } catch let error as NetworkError where error.webSocketError?.kind == .messageTooBig {
///     print("the server sent more than the limit; closed with", error.webSocketError?.closeCode as Any)
/// }
/// ```
public struct WebSocketError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The client's transport cannot open WebSocket connections (it is no ``WebSocketTransport``, or its
        /// platform cannot): `NetworkError` of kind `transport(other)`.
        case unsupportedTransport
        /// The server answered `101` but not as RFC 6455 §4.1 requires (its accept value, `Upgrade`, a subprotocol
        /// or an extension nobody offered): `transport(other)`, never retried.
        case invalidHandshake
        /// The server broke the framing rules (RFC 6455 §5): the connection was closed with 1002: `transport(other)`,
        /// a permanent failure (a server that speaks WebSocket wrongly will do it again), never retried.
        case protocolViolation
        /// A text message, or a close reason, that is not UTF-8 (§8.1): closed with 1007: `transport(other)`, permanent.
        case invalidText
        /// A message over ``WebSocketRequest/maximumMessageSize``: closed with 1009: `transport(responseTooLarge)`.
        case messageTooBig
        /// The connection ended without a closing handshake (1006): `transport(connectionLost)`.
        case connectionLost
        /// No pong came back within ``WebSocketRequest/pingInterval``: `transport(timedOut)`.
        case pingTimeout
        /// A message or ping sent on a connection that is closing or closed: `transport(other)`.
        case closed
        /// ``WebSocket/close(_:reason:)`` with a code that may not be sent (RFC 6455 §7.4): `invalidRequest`.
        case invalidCloseCode
    }

    /// What went wrong.
    public let kind: Kind
    /// What went wrong, in a sentence naming the RFC 6455 rule when one was broken.
    public let message: String
    /// The code the connection closed with, when it did: the one sent (1002, 1007, 1009) or received.
    public let closeCode: WebSocketCloseCode?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - kind: What went wrong.
    ///   - message: What went wrong, in a sentence.
    ///   - closeCode: The code the connection closed with, if it did.
    public init(_ kind: Kind, message: String, closeCode: WebSocketCloseCode? = nil) {
        self.kind = kind
        self.message = message
        self.closeCode = closeCode
    }

    /// The message.
    public var description: String { message }

    /// The `NetworkError` kind this error is reported under.
    var networkErrorKind: NetworkError.Kind {
        switch kind {
        // A breach of the protocol is `other`, not `badServerResponse`: the failure classifier counts the latter as
        // transient (a garbled HTTP answer may come right the next time), which a server that speaks bad WebSocket
        // is not.
        case .unsupportedTransport, .invalidHandshake, .closed, .protocolViolation, .invalidText: .transport(.other)
        case .messageTooBig: .transport(.responseTooLarge)
        case .connectionLost: .transport(.connectionLost)
        case .pingTimeout: .transport(.timedOut)
        case .invalidCloseCode: .invalidRequest
        }
    }
}

extension NetworkError {
    /// The `WebSocketError` behind this error, for a failure of a WebSocket.
    public var webSocketError: WebSocketError? { underlyingError as? WebSocketError }
}

extension WebSocketError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` reads as well.
    public var errorDescription: String? { description }
}
