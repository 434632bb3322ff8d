import Foundation
import NetworkingCore
import NetworkingHTTP
import NetworkingWebSocket

/// A scripted WebSocket server for tests, served by ``MockTransport`` (``MockTransport/stubWebSocket(_:_:)``): no
/// network, no server process, the client's real framing.
///
/// ```swift
/// let server = MockWebSocketServer { peer in
///     try await peer.send(.text("hello"))
///     #expect(try await peer.receive() == .text("hi"))
///     try await peer.close(.normalClosure, reason: "bye")
/// }
/// let mock = MockTransport().stubWebSocket("/chat", server)
/// ```
/// Each connection the client opens runs the script with a ``MockWebSocketPeer`` of its own (``connections``). When
/// the script returns without closing, the server waits for the client to close, recording what it sends; when the
/// script throws, the connection is dropped (the client sees 1006).
public final class MockWebSocketServer: Sendable {
    /// Runs for each connection.
    public typealias Script = @Sendable (MockWebSocketPeer) async throws -> Void

    private enum Answer {
        case accept(subprotocol: String?, script: Script)
        case refuse(HTTPResponse, Data)
    }

    private let answer: Answer
    /// Statuses the first handshakes are refused with, in order, before the server accepts.
    private let refusals: LockedBox<[HTTPResponse.Status]>
    private let peers = LockedBox<[MockWebSocketPeer]>([])
    private let handshakes = LockedBox<[HTTPRequest]>([])
    private let limit: Int

    /// A server that accepts every handshake and runs `script` on each connection.
    ///
    /// - Parameters:
    ///   - subprotocol: The subprotocol it chooses; the client must have offered it. `nil` (the default) for none.
    ///   - refusals: Statuses the first handshakes are refused with, one each, in order, before the server accepts
    ///     (a `401` for a credential to refresh, a `503` to retry); none by default.
    ///   - maximumMessageSize: The largest message it accepts from the client; 16 MiB by default.
    ///   - script: What it does on each connection.
    public init(
        subprotocol: String? = nil, refusals: [HTTPResponse.Status] = [], maximumMessageSize: Int = 16 * 1024 * 1024,
        _ script: @escaping Script
    ) {
        self.answer = .accept(subprotocol: subprotocol, script: script)
        self.refusals = LockedBox(refusals)
        self.limit = maximumMessageSize
    }

    /// A server that refuses every handshake with `status`: a `401` for a credential to refresh, a `503` to retry.
    ///
    /// - Parameters:
    ///   - status: The status, not `101`.
    ///   - headers: The response's header fields.
    ///   - body: The response's body.
    public init(refusingWith status: HTTPResponse.Status, headers: HTTPFields = [:], body: Data = Data()) {
        self.answer = .refuse(HTTPResponse(status: status, headerFields: headers), body)
        self.refusals = LockedBox([])
        self.limit = 0
    }

    /// A server that sends `messages` on each connection, then closes with `code` (or, with `nil`, waits for the
    /// client to close).
    ///
    /// - Parameters:
    ///   - messages: What it sends, in order.
    ///   - code: The close code it closes with after them; `nil` to leave the closing to the client.
    ///   - reason: The reason of its close frame.
    /// - Returns: The server.
    public static func sending(
        _ messages: [WebSocketMessage], thenClosingWith code: WebSocketCloseCode? = .normalClosure, reason: String = ""
    ) -> MockWebSocketServer {
        MockWebSocketServer { peer in
            for message in messages { try await peer.send(message) }
            if let code { try await peer.close(code, reason: reason) }
        }
    }

    /// The server's end of each connection opened so far, in order.
    public var connections: [MockWebSocketPeer] { peers.withLock { $0 } }

    /// Every handshake received, accepted or refused, in order, as the client sent it.
    public var receivedHandshakes: [HTTPRequest] { handshakes.withLock { $0 } }

    /// Every message the client sent, on every connection, in order.
    public var receivedMessages: [WebSocketMessage] { connections.flatMap(\.receivedMessages) }

    /// Answers `request`, the handshake as the client sent it: a `101` with the accept value of its key and the
    /// script running on the server's end, or the refusal.
    func answer(_ request: HTTPRequest) -> WebSocketUpgrade {
        handshakes.withLock { $0.append(request) }
        let refusal: HTTPResponse.Status? = refusals.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        if let refusal { return WebSocketUpgrade(refusal: HTTPResponse(status: refusal), body: .empty) }
        switch answer {
        case .refuse(let response, let body):
            return WebSocketUpgrade(refusal: response, body: .data(body))
        case .accept(let subprotocol, let script):
            var fields: HTTPFields = ["Upgrade": "websocket", "Connection": "Upgrade"]
            let key = request.headerFields["Sec-WebSocket-Key"] ?? ""
            fields["Sec-WebSocket-Accept"] = WebSocketHandshake.accept(forKey: key)
            if let subprotocol { fields["Sec-WebSocket-Protocol"] = subprotocol }
            let (client, server) = MemoryByteStream.pair()
            let peer = MockWebSocketPeer(request: request, stream: server, maximumMessageSize: limit)
            peers.withLock { $0.append(peer) }
            Task {
                do {
                    try await script(peer)
                    while try await peer.receive() != nil {}
                } catch {
                    peer.drop()
                }
            }
            return WebSocketUpgrade(
                switchingProtocols: HTTPResponse(status: 101, headerFields: fields), stream: client)
        }
    }
}
