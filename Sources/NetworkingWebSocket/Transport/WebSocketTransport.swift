import Foundation
import NetworkingCore
import NetworkingHTTP

/// A transport that can open WebSocket connections for `NetworkClient/webSocket(_:behavior:)`: it sends an opening
/// handshake and hands back the server's answer with the connection behind it.
///
/// The client builds the handshake (RFC 6455 §4.1: `GET`, `Upgrade`, `Sec-WebSocket-Version`, `Sec-WebSocket-Key`,
/// offered subprotocols), runs it through its behaviors like any call, and checks the answer itself: the transport
/// writes it as HTTP/1.1 with `Connection: Upgrade` (a field only a transport sets), on a connection of its own
/// (never a pooled one, since it will not come back) with the same trust, proxy and identity settings as its HTTP
/// requests. For a `101 Switching Protocols` it returns
/// the connection's bytes (``WebSocketUpgrade/init(switchingProtocols:stream:)``); the client frames the messages on
/// them, so the framing is the same on every transport. For any other status it returns the head and body
/// (``WebSocketUpgrade/init(refusal:body:)``), which the client reports as it reports an unacceptable status.
///
/// A transport that cannot open WebSocket connections does not adopt the protocol: the client then fails the call
/// with `NetworkError` of kind `transport(other)` naming the transport (`WebSocketError/Kind/unsupportedTransport`).
public protocol WebSocketTransport: HTTPTransport {
    /// Opens a connection to `request`'s origin, sends the handshake, and returns the server's answer.
    ///
    /// - Parameter request: The handshake, checked and changed by every behavior; `http` or `https` (the client maps
    ///   `ws` and `wss`).
    /// - Returns: The answer: for `101`, the connection's bytes after the head; otherwise the head and its body.
    /// - Throws: `CancellationError` when cancelled; a `TransportError` or `URLError` when no answer came.
    func openWebSocket(_ request: HTTPRequest) async throws -> WebSocketUpgrade
}

/// The bytes of a connection, both ways: what a ``WebSocketTransport`` hands over after a `101`, and what the client
/// frames messages on. Reads are pulled: a reader that does not call ``read()`` leaves the bytes in the network, so a
/// slow reader slows the server down instead of filling memory.
public protocol WebSocketByteStream: Sendable {
    /// The next bytes received, waiting for some; `nil` once the peer closed the connection.
    ///
    /// - Returns: At least one byte, or `nil` at the end.
    /// - Throws: When the connection failed; `CancellationError` when the calling task is cancelled.
    func read() async throws -> Data?

    /// Writes all of `bytes`, in order after every earlier write, returning once they are handed to the connection.
    ///
    /// - Parameter bytes: What to send.
    /// - Throws: When the connection failed or was closed.
    func write(_ bytes: Data) async throws

    /// Closes the connection (TLS and TCP). A waiting ``read()`` returns `nil`, later writes throw. Closing twice does
    /// nothing.
    func close()
}

/// What a ``WebSocketTransport`` answers a handshake with: the response head, and the connection or the body.
public struct WebSocketUpgrade: Sendable {
    /// The response head.
    public let response: HTTPResponse

    package enum Content: Sendable {
        case stream(any WebSocketByteStream)
        case refusal(HTTPBody)
    }

    package let content: Content

    /// A `101 Switching Protocols`, with the connection whose next bytes are the WebSocket's.
    ///
    /// - Parameters:
    ///   - response: The `101` head.
    ///   - stream: The connection; the bytes the server sent after the head included.
    public init(switchingProtocols response: HTTPResponse, stream: any WebSocketByteStream) {
        self.response = response
        self.content = .stream(stream)
    }

    /// Any other answer: a `401` to refresh a credential for, a `503` to retry, a page that is not a WebSocket.
    ///
    /// - Parameters:
    ///   - response: The head.
    ///   - body: The body, in memory or arriving.
    public init(refusal response: HTTPResponse, body: HTTPBody) {
        self.response = response
        self.content = .refusal(body)
    }

    /// Closes what the answer holds: the connection, or the body.
    package func discard() {
        switch content {
        case .stream(let stream): stream.close()
        case .refusal(let body): body.cancel()
        }
    }
}
