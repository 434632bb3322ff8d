import Foundation
import NetworkingCore
import NetworkingHTTP

/// What `NetworkClient/webSocket(_:behavior:)` opens: where, with which subprotocols and header fields, and the limits
/// of the connection.
///
/// ```swift
/// var request = WebSocketRequest(path: "/chat", subprotocols: ["chat.v2"])
/// request.maximumMessageSize = 4 * 1024 * 1024
/// request.pingInterval = .seconds(30)
/// let socket = try await client.webSocket(request)
/// ```
public struct WebSocketRequest: Sendable {
    /// Where a WebSocket goes: a path appended to the client's base URL, or an absolute URL.
    public enum Endpoint: Sendable, Hashable {
        /// A path (optionally with a `?query`) appended to the client's base URL, whose `https` becomes `wss` and
        /// `http` becomes `ws`.
        case path(String)
        /// An absolute `ws`, `wss`, `http` or `https` URL; the client's base URL is not used.
        case url(URL)
    }

    /// The path or URL.
    public var endpoint: Endpoint
    /// Query items appended to the URL, in order.
    public var query: [URLQueryItem]
    /// Header fields of the opening handshake (an `Origin`, a cookie); they win over behaviors' `additionalHeaders`.
    /// The handshake's own (`Upgrade`, `Connection`, `Sec-WebSocket-*`) are the client's.
    public var headers: HTTPFields
    /// The subprotocols offered, most preferred first (`Sec-WebSocket-Protocol`, RFC 6455 §1.9); the one the
    /// server chose is ``WebSocket/subprotocol``.
    public var subprotocols: [String]
    /// The time limit of each handshake attempt, overriding the client's `NetworkClient/Configuration/timeout`.
    public var timeout: Duration?
    /// The time limit of the handshake with its retries, overriding `NetworkClient/Configuration/deadline`. The
    /// connection itself has no time limit.
    public var deadline: Duration?
    /// Values for behaviors to read from `RequestContext/metadata`.
    public var metadata = RequestMetadata()
    /// The largest message received, reassembled from its frames: a bigger one closes the connection with 1009
    /// (RFC 6455 §10.4) as soon as its size is announced. 1 MiB by default, the default of Apple's
    /// `URLSessionWebSocketTask` and of the `websockets` package: raise it for bigger messages.
    public var maximumMessageSize = 1024 * 1024
    /// The bytes of received messages held for a reader that is behind: once they are there, the connection stops
    /// reading the network until the reader catches up (and the server is slowed down by TCP). 1 MiB by default.
    /// Memory per connection stays within this, one message and one network read.
    public var bufferLimit = 1024 * 1024
    /// How often a ping is sent, on the client's clock, when nothing else tells the connection is alive; a ping
    /// unanswered by the next one fails the connection (`WebSocketError/Kind/pingTimeout`). `nil` (the default)
    /// sends none.
    public var pingInterval: Duration?
    /// How long a closing handshake waits for the server's close frame and for the server to close the connection,
    /// on the client's clock, before the client closes it itself. 5 seconds by default.
    public var closeTimeout: Duration = .seconds(5)

    /// Creates a request for a path relative to the client's base URL.
    ///
    /// - Parameters:
    ///   - path: The path, such as `/chat`.
    ///   - query: Query items appended to the URL.
    ///   - headers: Header fields of the handshake.
    ///   - subprotocols: The subprotocols offered, most preferred first.
    public init(path: String, query: [URLQueryItem] = [], headers: HTTPFields = [:], subprotocols: [String] = []) {
        self.endpoint = .path(path)
        self.query = query
        self.headers = headers
        self.subprotocols = subprotocols
    }

    /// Creates a request for an absolute `ws`, `wss`, `http` or `https` URL.
    ///
    /// - Parameters:
    ///   - url: The URL, such as `wss://chat.example.com/rooms/1`.
    ///   - query: Query items appended to the URL.
    ///   - headers: Header fields of the handshake.
    ///   - subprotocols: The subprotocols offered, most preferred first.
    public init(url: URL, query: [URLQueryItem] = [], headers: HTTPFields = [:], subprotocols: [String] = []) {
        self.endpoint = .url(url)
        self.query = query
        self.headers = headers
        self.subprotocols = subprotocols
    }

    /// The name of the endpoint, such as `chatRoom`, for logs (stored in ``metadata``, as
    /// `NetworkRequest/endpointName` is).
    public var endpointName: String? {
        get { metadata[EndpointName.self] }
        set { metadata[EndpointName.self] = newValue }
    }

    /// The handshake as a `GET` of the client's: the endpoint mapped to `http`/`https`, the handshake's fields
    /// added, redirects not followed (RFC 6455 §4.1 leaves them to the client; a WebSocket is not moved).
    func handshake() -> NetworkRequest<Data> {
        let target: NetworkRequest<Data>.Endpoint
        switch endpoint {
        case .path(let path): target = .path(path)
        case .url(let url): target = .url(Self.httpURL(for: url))
        }
        var request = NetworkRequest<Data>(
            method: .get, endpoint: target, query: query, headers: headers, timeout: timeout, deadline: deadline,
            acceptableStatusCodes: [101], decode: { data, _, _ in data })
        request.metadata = metadata
        request.followsRedirects = false
        for (name, value) in WebSocketHandshake.requestFields(subprotocols: subprotocols) {
            request.headers[name] = value
        }
        return request
    }

    /// `ws` as `http` and `wss` as `https` (RFC 6455 §3 names the same hosts and ports); other URLs unchanged, so the
    /// client refuses what is neither.
    package static func httpURL(for url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        switch components.scheme.map(HTTPToken.lowercasedASCII) {
        case "ws": components.scheme = "http"
        case "wss": components.scheme = "https"
        default: return url
        }
        return components.url ?? url
    }
}
