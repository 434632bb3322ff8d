import Foundation
import NetworkingCore
import NetworkingHTTP

extension NetworkClient {
    /// Opens a WebSocket connection (RFC 6455): the opening handshake runs through the behavior chain like any call,
    /// and the connection stays open until it is closed.
    ///
    /// ```swift
    /// let socket = try await client.webSocket(WebSocketRequest(path: "/chat", subprotocols: ["chat.v2"]))
    /// try await socket.send(.text("hello"))
    /// for try await message in socket.messages { print(message) }
    /// ```
    /// The handshake is a `GET` with the handshake's fields (`Upgrade: websocket`, `Sec-WebSocket-Key`, a fresh
    /// random key each attempt), so every behavior applies to it: authorization and token refresh add their
    /// credentials (a `401` refreshes and tries again), request modifiers change it, logging logs it (redacted) and
    /// the connection's end, the activity counter counts the connection for as long as it is open, and retry sends
    /// the handshake again after a failure its policy retries (a refused connection, a `503`). The HTTP cache
    /// stands aside (a request asking to switch protocols is never answered from the store); coalescing stands aside
    /// too (it joins buffered calls only). A behavior that answers the handshake itself, without the server, fails
    /// the call: only a server opens a connection. Redirects are not followed (a `3xx` is an unacceptable status).
    ///
    /// The client's transport must be a `WebSocketTransport`. The attempt timeout limits the wait for the
    /// server's answer; the connection itself has no time limit.
    ///
    /// - Parameters:
    ///   - request: Where to connect, the subprotocols offered, and the connection's limits.
    ///   - behavior: Behavior for this handshake only; the client-wide behavior wraps it.
    /// - Returns: The open connection.
    /// - Throws: `NetworkError`: `unacceptableStatus` for an answer other than `101` (with the body's first 64 KiB),
    ///   `transport(other)` with a `WebSocketError` of kind `invalidHandshake` when the `101` breaks RFC 6455 §4.1
    ///   or `unsupportedTransport` when the transport cannot open WebSockets, `invalidRequest` for a bad request
    ///   (a subprotocol that is not a token), or any failure a call has; `CancellationError` when cancelled.
    public func webSocket(
        _ request: WebSocketRequest, behavior: any RequestBehavior = EmptyBehavior()
    ) async throws -> WebSocket {
        try await webSocket(request, behavior: behavior, random: .system)
    }

    /// ``webSocket(_:behavior:)`` with the random bytes of keys and masks from `random`: for tests that assert the
    /// bytes on the wire.
    package func webSocket(
        _ request: WebSocketRequest, behavior: any RequestBehavior, random: WebSocketRandom
    ) async throws -> WebSocket {
        let handshake = request.handshake()
        if let problem = WebSocketHandshake.problem(inSubprotocols: request.subprotocols) {
            throw NetworkError(.invalidRequest, requestName: handshake.name, message: "invalid request: \(problem)")
        }
        let call = try prepare(handshake, behavior: behavior, form: .stream)
        let opener = WebSocketOpener(
            request: request, attempt: call.attempt, clock: configuration.clock, random: random)
        let (response, body) = try await call.run(opener.open)
        guard let (connection, subprotocol) = opener.claim(body) else {
            body.cancel()
            throw NetworkError(
                .transport(.other), requestName: call.name,
                message: "the handshake was answered \(response.status) by a behavior, not by a server: only a "
                    + "server opens a WebSocket", builtRequest: call.built, response: response)
        }
        return WebSocket(connection: connection, lifetime: body, subprotocol: subprotocol)
    }
}
