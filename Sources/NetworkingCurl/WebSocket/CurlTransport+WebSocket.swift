import CCurlShim
import Foundation
import NetworkingCore
import NetworkingHTTP
import NetworkingWebSocket

extension CurlTransport: WebSocketTransport {
    /// Opens a WebSocket connection for `NetworkClient/webSocket(_:behavior:)`: libcurl connects (through the proxy,
    /// with a `CONNECT` tunnel, and TLS with this transport's trust, pins and client identity), then the handshake is
    /// written as HTTP/1.1 and the answer read on the connection, on the transport's thread.
    ///
    /// The connection is the WebSocket's own, never a pooled one, and it counts toward
    /// ``Configuration/maximumConnectionsPerHost`` while it is open (libcurl keeps it with the others). TLS offers
    /// only HTTP/1.1 (ALPN), as an upgrade is HTTP/1.1's. A reader that falls behind stops the transport reading the
    /// socket once 64 KiB wait for it, so TCP slows the server down.
    ///
    /// - Parameter request: The handshake, checked by the client; `http` or `https`.
    /// - Returns: For `101`, the connection's bytes after the head; otherwise the head and up to 64 KiB of its body.
    /// - Throws: `CancellationError` when cancelled (the connection is closed); `TransportError` when no answer came,
    ///   with libcurl's words: the connection or TLS failed, the server closed without answering, or answered with
    ///   something that is no HTTP/1.1 head.
    public func openWebSocket(_ request: HTTPRequest) async throws -> WebSocketUpgrade {
        if let reason = request.invalidReason ?? request.body.problem {
            throw TransportError(.other, "invalid request: \(reason); nothing was sent")
        }
        guard request.body.isEmpty else {
            throw TransportError(.other, "a WebSocket handshake has no body; nothing was sent")
        }
        var raw = ncurl_raw_api()
        ncurl_open_raw(loop.library.api, &raw)
        guard raw.easy_send != nil, raw.easy_recv != nil else {
            throw TransportError(
                .other,
                "libcurl \(loop.library.version) lacks curl_easy_send or curl_easy_recv: it cannot open WebSocket "
                    + "connections")
        }
        try Task.checkCancellation()
        let socket = CurlWebSocket(transport: self, raw: raw, request: request)
        if let error = socket.prepare(loop.settings) {
            socket.release()
            throw error
        }
        return try await socket.open()
    }
}
