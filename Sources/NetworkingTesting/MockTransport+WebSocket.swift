import Foundation
import NetworkingCore
import NetworkingHTTP
import NetworkingWebSocket

extension MockTransport: WebSocketTransport {
    /// Serves WebSocket handshakes to `path` with `server`.
    ///
    /// ```swift
    /// let server = MockWebSocketServer.sending([.text("hello")])
    /// let mock = MockTransport().stubWebSocket("/chat", server)
    /// ```
    ///
    /// - Parameters:
    ///   - path: The path pattern; see ``StubMatcher`` for the rules.
    ///   - server: The server answering the handshakes.
    /// - Returns: This mock, so stubs can be chained.
    @discardableResult
    public func stubWebSocket(_ path: String, _ server: MockWebSocketServer) -> MockTransport {
        state.withLock { $0.webSocketStubs.append((StubMatcher(method: .get, path: path), server)) }
        return self
    }

    /// Records the handshake with the other requests (``requests``), then answers it from the WebSocket stub
    /// matching its path (the latest, when several do).
    ///
    /// - Parameter request: The handshake as sent after every behavior.
    /// - Returns: The server's answer.
    /// - Throws: ``UnmatchedRequestError`` when no WebSocket stub matches.
    public func openWebSocket(_ request: HTTPRequest) async throws -> WebSocketUpgrade {
        let recorded = RecordedRequest(request, body: nil)
        let (server, stubs): (MockWebSocketServer?, [String]) = state.withLock { state in
            state.records.append(recorded)
            let server = state.webSocketStubs.last { $0.0.matches(recorded) }?.1
            return (server, state.webSocketStubs.map { "WebSocket \($0.0.description)" })
        }
        try Task.checkCancellation()
        guard let server else { throw UnmatchedRequestError(request: recorded.description, stubs: stubs) }
        return server.answer(request)
    }
}
