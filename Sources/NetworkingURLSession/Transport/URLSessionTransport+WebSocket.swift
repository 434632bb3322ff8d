import Foundation
import NetworkingCore
import NetworkingHTTP
import NetworkingWebSocket

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSessionTransport: WebSocketTransport {
    /// Opens a WebSocket connection with Foundation's `URLSessionWebSocketTask`, on Apple platforms; on Linux it
    /// refuses (see below).
    ///
    /// Apple's task does the handshake and the framing itself, on the transport's session (its trust settings
    /// apply). The client still sees the same `WebSocket`: the task's messages are handed over as frames and the
    /// client's frames are read back into the task's messages, pings and close, so what differs is the task's:
    /// it answers the server's pings itself, reads a whole message before the client sees its size (so
    /// `WebSocketRequest/maximumMessageSize` is checked after the message is in memory), receives one message per
    /// read of the client (backpressure by message, not by byte), and reports a refused handshake's status and fields
    /// but not its body. The task checked the server's `Sec-WebSocket-Accept` against its own key; the `101` handed
    /// back carries the value for the client's key, so the client's check passes on what the task verified.
    ///
    /// On Linux, FoundationNetworking's task needs a libcurl built with WebSocket support, which Debian's (7.88) is
    /// not: the task fails with "WebSockets not supported by libcurl". The transport refuses at once with
    /// `WebSocketError` of kind `WebSocketError/Kind/unsupportedTransport` saying so; use `CurlTransport`, the Linux
    /// default, which opens WebSockets on any libcurl.
    ///
    /// - Parameter request: The handshake, checked by the client.
    /// - Returns: For `101`, the connection; otherwise the refusal's head with an empty body.
    /// - Throws: `WebSocketError` on Linux; `CancellationError` when cancelled; `URLError` when the task failed
    ///   without an answer.
    public func openWebSocket(_ request: HTTPRequest) async throws -> WebSocketUpgrade {
        // Linux only: swift-corelibs-foundation's URLSessionWebSocketTask is built on libcurl's WebSocket API. Apple
        // docs checked: URLSessionWebSocketTask (developer.apple.com/documentation/foundation/urlsessionwebsockettask)
        // is Apple's own implementation, available from macOS 10.15 and iOS 13 on.
        #if canImport(FoundationNetworking)
            throw WebSocketError(
                .unsupportedTransport,
                message: "URLSessionTransport cannot open WebSocket connections on Linux: FoundationNetworking's "
                    + "URLSessionWebSocketTask needs a libcurl built with WebSocket support, and this system's is not "
                    + "(it fails with \"WebSockets not supported by libcurl\"); use CurlTransport, the Linux default")
        #else
            return try await URLSessionWebSocketOpening.open(request, transport: self)
        #endif
    }
}

/// One `URLSessionWebSocketTask` being opened: its own delegate (`URLSessionTask.delegate`, macOS 12 and iOS 15 on)
/// learns whether the handshake succeeded.
final class URLSessionWebSocketOpening: NSObject, URLSessionWebSocketDelegate, @unchecked Sendable {
    private let outcome = LockedBox<(CheckedContinuation<Void, any Error>?, Result<Void, any Error>?)>((nil, nil))

    static func open(_ request: HTTPRequest, transport: URLSessionTransport) async throws -> WebSocketUpgrade {
        let session = transport.session
        guard var urlRequest = request.urlRequest, let url = urlRequest.url,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { throw TransportError(.other, "the handshake's target cannot form a URL; nothing was sent") }
        // The task writes the handshake's own fields (Upgrade, Connection, the key and the version) itself.
        for name in ["Upgrade", "Connection", "Sec-WebSocket-Key", "Sec-WebSocket-Version"] {
            urlRequest.setValue(nil, forHTTPHeaderField: name)
        }
        components.scheme = components.scheme == "https" ? "wss" : "ws"
        urlRequest.url = components.url
        let task = session.webSocketTask(with: urlRequest)
        // The client checks sizes; the task's own limit (1 MiB by default) would fail bigger messages first.
        task.maximumMessageSize = Int(Int32.max)
        let opening = URLSessionWebSocketOpening()
        task.delegate = opening
        try await withTaskCancellationHandler {
            try await opening.wait { task.resume() }
        } onCancel: {
            task.cancel()
        }
        guard let head = task.response as? HTTPURLResponse else {
            throw TransportError(.badServerResponse, "the WebSocket task opened without a response")
        }
        var response = HTTPResponse(head)
        guard head.statusCode == 101 else {
            task.cancel()
            return WebSocketUpgrade(refusal: response, body: HTTPBody(Data()))
        }
        if let key = request.headerFields[.secWebSocketKey] {
            response.headerFields[.secWebSocketAccept] = WebSocketHandshake.accept(forKey: key)
        }
        return WebSocketUpgrade(
            switchingProtocols: response,
            stream: WebSocketMessageBridge(URLSessionWebSocketChannel(task, transport: transport)))
    }

    private func wait(starting start: () -> Void) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            outcome.withLock { $0.0 = continuation }
            start()
        }
    }

    private func finish(_ result: Result<Void, any Error>) {
        let continuation = outcome.withLock { state in
            defer { state.0 = nil }
            return state.0
        }
        continuation?.resume(with: result)
    }

    func urlSession(
        _ session: URLSession, webSocketTask: URLSessionWebSocketTask, didOpenWithProtocol protocol: String?
    ) {
        finish(.success(()))
    }

    func urlSession(
        _ session: URLSession, webSocketTask: URLSessionWebSocketTask,
        didCloseWith closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?
    ) {
        // The channel reads the close from the task (`closeCode`, `closeReason`).
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        // A refused handshake completes the task; its response (a 401, a 503) is then what the caller gets.
        if task.response != nil { return finish(.success(())) }
        finish(.failure(error ?? URLError(.badServerResponse)))
    }
}

/// A `URLSessionWebSocketTask` as a ``WebSocketMessageChannel`` for the bridge. It keeps the transport, whose session
/// the task runs on: an app keeps the socket, not the client it was opened with.
final class URLSessionWebSocketChannel: WebSocketMessageChannel, @unchecked Sendable {
    private let task: URLSessionWebSocketTask
    private let transport: URLSessionTransport

    init(_ task: URLSessionWebSocketTask, transport: URLSessionTransport) {
        self.task = task
        self.transport = transport
    }

    func send(_ message: WebSocketMessage) async throws {
        switch message {
        case .text(let text): try await task.send(.string(text))
        case .binary(let data): try await task.send(.data(data))
        }
    }

    func receive() async throws -> WebSocketMessage {
        switch try await task.receive() {
        case .string(let text): return .text(text)
        case .data(let data): return .binary(data)
        @unknown default: throw TransportError(.badServerResponse, "the WebSocket task received an unknown message")
        }
    }

    func ping() async throws {
        let task = task
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            task.sendPing { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    func close(code: WebSocketCloseCode?, reason: Data) {
        let closeCode = code.flatMap { URLSessionWebSocketTask.CloseCode(rawValue: Int($0.rawValue)) } ?? .normalClosure
        task.cancel(with: closeCode, reason: reason.isEmpty ? nil : reason)
    }

    var closeFrame: (code: WebSocketCloseCode?, reason: Data)? {
        let code = task.closeCode
        guard code != .invalid else { return nil }
        return (WebSocketCloseCode(rawValue: UInt16(clamping: code.rawValue)), task.closeReason ?? Data())
    }
}
