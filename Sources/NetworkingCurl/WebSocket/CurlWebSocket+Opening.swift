import CCurlShim
import Foundation
import NetworkingCore
import NetworkingHTTP
import NetworkingWebSocket

extension CurlWebSocket {
    /// Makes the connect-only easy handle with the transport's settings (caller's thread, before the hand-over);
    /// the error the handshake fails with, or `nil`.
    func prepare(_ settings: CurlSettings) -> TransportError? {
        guard let easy = api.pointee.easy_init() else {
            return TransportError(.other, "libcurl could not make a transfer (out of memory); nothing was sent")
        }
        self.easy = easy
        guard let url = request.url?.absoluteString else {
            return TransportError(.other, "the handshake's target cannot form a URL; nothing was sent")
        }
        var failed: [String] = []
        func check(_ result: Int32, _ what: String) {
            if result != 0 { failed.append("\(what): \(loop.library.describe(result))") }
        }
        let api = self.api
        check(CurlText.set(api, easy, CurlOption.url, url), "URL")
        // Connect (through the proxy and TLS), then stop: the handshake is ours to write.
        check(ncurl_setopt_long(api, easy, CurlOption.connectOnly, 1), "connect only")
        _ = ncurl_setopt_long(api, easy, CurlOption.noSignal, 1)
        _ = ncurl_setopt_long(api, easy, CurlOption.protocols, CurlOption.protocolsHTTPAndHTTPS)
        _ = ncurl_setopt_pointer(api, easy, CurlOption.errorBuffer, errorBuffer)
        // HTTP/1.1 only, so TLS offers no h2 by ALPN: an upgrade is HTTP/1.1's (RFC 6455 §4.1).
        _ = ncurl_setopt_long(api, easy, CurlOption.httpVersion, CurlOption.httpVersion1_1)
        // Through an HTTP proxy, a tunnel for plain ws:// too, as browsers open one: a proxy that forwards requests
        // would not forward the connection after the 101.
        _ = ncurl_setopt_long(api, easy, CurlOption.httpProxyTunnel, 1)
        settings.applyProxy(to: easy, api: api, check: check)
        settings.applyTrust(to: easy, api: api, check: check)
        guard failed.isEmpty else {
            return TransportError(
                .other, "libcurl refused the handshake: \(failed.joined(separator: "; ")); nothing was sent")
        }
        return nil
    }

    /// Hands the connection to the loop thread and waits for the handshake's answer; cancelling the waiting task
    /// closes the connection.
    func open() async throws -> WebSocketUpgrade {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<WebSocketUpgrade, any Error>) in
                let waiting = shared.withLock { shared in
                    // A task cancelled before it got here ran the handler already, with nothing to stop.
                    guard !shared.closed, !Task.isCancelled else { return false }
                    shared.opening = continuation
                    return true
                }
                guard waiting else { return continuation.resume(throwing: CancellationError()) }
                loop.submit(.webSocket(.open(self)))
            }
        } onCancel: {
            // Only a handshake still waiting is given up; a connection already handed over is the caller's.
            let opening: CheckedContinuation<WebSocketUpgrade, any Error>? = shared.withLock { shared in
                guard let opening = shared.opening else { return nil }
                shared.opening = nil
                shared.closed = true
                return opening
            }
            guard let opening else { return }
            opening.resume(throwing: CancellationError())
            loop.submit(.webSocket(.close(self)))
        }
    }

    /// The caller closed the connection (loop thread): a waiting reader gets the end, writes fail.
    func closedByCaller() {
        let wasOpen = phase == .open
        phase = .closed
        guard wasOpen else { return fail(CancellationError()) }
        let lost = TransportError(.connectionLost, "the connection is closed")
        let (reader, writes) = shared.withLock { shared in
            if shared.writeFailure == nil { shared.writeFailure = lost }
            defer {
                shared.reader = nil
                shared.writes = []
            }
            return (shared.reader, shared.writes.map(\.1))
        }
        reader?.resume(returning: nil)
        for write in writes { write.resume(throwing: lost) }
        outgoingDone?.resume(throwing: lost)
        outgoingDone = nil
    }

    /// Frees the easy handle (loop thread, out of the multi handle; or the caller's thread before the hand-over).
    func release() {
        if let easy { api.pointee.easy_cleanup(easy) }
        easy = nil
        socket = -1
    }
}

extension CurlWebSocket.Command {
    /// The loop has stopped and will never run this command: the handshake waiting for it fails.
    func settleUnrun() {
        switch self {
        case .open(let socket):
            socket.fail(CancellationError())
            socket.release()
        case .poke, .close:
            break
        }
    }
}
