import Foundation
import Testing

import Networking
import NetworkingTestSupport
import NetworkingTesting
import NetworkingWebSocket

/// The opening handshake through the behavior chain: credentials, logging, the activity counter, retry, the cache,
/// and what fails the call before a connection opens.
@Suite struct WebSocketChainTests {
    @Test func theHandshakeCarriesTheChainsCredentialsAndTheRFCsFields() async throws {
        let server = MockWebSocketServer(subprotocol: "chat.v2") { _ in }
        let mock = MockTransport().stubWebSocket("/rooms/*", server)
        let client = try makeClient(
            transport: mock, behavior: .authorization(.bearer, token: { "secret-token-1" }), clock: TestClock())
        var request = WebSocketRequest(path: "/rooms/7", query: [URLQueryItem(name: "since", value: "42")])
        request.subprotocols = ["chat.v2", "chat"]
        request.headers["Origin"] = "https://app.example.test"
        let socket = try await client.webSocket(request)
        #expect(socket.subprotocol == "chat.v2")
        let handshake = try #require(server.receivedHandshakes.first)
        #expect(handshake.method == .get)
        #expect(handshake.url?.absoluteString == "https://api.example.test/v1/rooms/7?since=42")
        #expect(handshake.headerFields["Authorization"] == "Bearer secret-token-1")
        #expect(handshake.headerFields["Origin"] == "https://app.example.test")
        #expect(handshake.headerFields["Upgrade"] == "websocket")
        #expect(handshake.headerFields["Sec-WebSocket-Version"] == "13")
        #expect(handshake.headerFields["Sec-WebSocket-Protocol"] == "chat.v2, chat")
        #expect(Data(base64Encoded: handshake.headerFields["Sec-WebSocket-Key"] ?? "")?.count == 16)
        #expect(mock.requests.count == 1)  // recorded with the mock's other requests
        try await socket.close()
    }

    @Test func loggingWritesTheHandshakeRedactedAndTheConnectionsEnd() async throws {
        let lines = LockedBox<[String]>([])
        let sink = LogSink { line in lines.withLock { $0.append(line) } }
        let server = MockWebSocketServer { _ in }
        let client = try makeClient(
            transport: MockTransport().stubWebSocket("/chat", server),
            behavior: CombinedBehavior([.logging(to: sink, headers: true), .authorization(token: { "secret-token-2" })])
        )
        let socket = try await client.webSocket(WebSocketRequest(path: "/chat"))
        try await socket.close()
        #expect(await eventually { lines.current.count == 3 })
        let log = lines.current
        #expect(log[0].contains("GET https://api.example.test/v1/chat"))
        #expect(log[1].contains("101 GET https://api.example.test/v1/chat"))
        #expect(log[1].contains("streaming"))
        #expect(log[2].contains("stream finished GET"))
        #expect(!log.joined().contains("secret-token-2"))
    }

    @Test func theActivityCounterCountsTheConnectionWhileItIsOpen() async throws {
        let store = InMemoryActivityCounterStore()
        let server = MockWebSocketServer { _ in }
        let client = try makeClient(
            transport: MockTransport().stubWebSocket("/chat", server), behavior: .activityCounter(store: store),
            clock: TestClock())
        let socket = try await client.webSocket(WebSocketRequest(path: "/chat"))
        #expect(store.count == 1)
        try await socket.close()
        #expect(store.count == 0)
    }

    @Test func aRefusedHandshakeIsRetriedWithAFreshKeyAsThePolicySays() async throws {
        let server = MockWebSocketServer(refusals: [.serviceUnavailable]) { _ in }
        let clock = TestClock()
        let client = try makeClient(
            transport: MockTransport().stubWebSocket("/chat", server), behavior: .retry(clock: clock), clock: clock)
        let socket = try await client.webSocket(WebSocketRequest(path: "/chat"))
        let keys = server.receivedHandshakes.map { $0.headerFields["Sec-WebSocket-Key"] }
        #expect(keys.count == 2)
        #expect(keys[0] != keys[1])  // §4.1 item 7: a nonce per connection
        #expect(server.connections.count == 1)
        try await socket.close()
    }

    @Test func retryNeverOpensTheConnectionAgainAfterItWasOpen() async throws {
        // Given a retry that retries every transient failure, and a server that breaks the protocol once open
        let server = MockWebSocketServer { peer in
            try await peer.sendFrame(opcode: 0x3, payload: Data())
        }
        let clock = TestClock()
        let client = try makeClient(
            transport: MockTransport().stubWebSocket("/chat", server), behavior: .retry(clock: clock), clock: clock)
        // When the connection fails after the 101
        let socket = try await client.webSocket(WebSocketRequest(path: "/chat"))
        let error = try await expectNetworkError { for try await _ in socket.messages {} }
        try await socket.close()
        // Then the failure is the caller's, permanent, and the handshake was sent once
        #expect(error?.webSocketError?.kind == .protocolViolation)
        #expect(error.map { FailureClassification($0).kind } == .permanent)
        #expect(server.receivedHandshakes.count == 1)
    }

    @Test func aRefusalWithoutRetryIsAnUnacceptableStatusWithItsBody() async throws {
        let server = MockWebSocketServer(refusingWith: .init(code: 403), body: Data("no chat for you".utf8))
        let client = try makeClient(transport: MockTransport().stubWebSocket("/chat", server))
        let error = try await expectNetworkError { try await client.webSocket(WebSocketRequest(path: "/chat")) }
        #expect(error?.kind == .unacceptableStatus(403))
        #expect(error?.body == Data("no chat for you".utf8))
        #expect(error?.requestName == "GET /chat")
        #expect(error?.sentRequest?.headerFields["Upgrade"] == "websocket")
    }

    @Test func aTokenRefreshRetriesAHandshakeRefusedWith401() async throws {
        let server = MockWebSocketServer(refusals: [.unauthorized]) { _ in }
        let client = try makeClient(
            transport: MockTransport().stubWebSocket("/chat", server),
            behavior: .tokenRefresh(initial: AccessCredential(token: "old")) { _ in
                AccessCredential(token: "new")
            }, clock: TestClock())
        let socket = try await client.webSocket(WebSocketRequest(path: "/chat"))
        #expect(server.receivedHandshakes.map { $0.headerFields["Authorization"] } == ["Bearer old", "Bearer new"])
        try await socket.close()
    }

    @Test func theHTTPCacheNeverAnswersAHandshake() async throws {
        // A stored 200 for the same URL must not answer a request to switch protocols.
        let server = MockWebSocketServer { _ in }
        let mock = MockTransport().stubWebSocket("/chat", server)
            .stub(.get, "/chat", .success("page", headers: ["Cache-Control": "max-age=600"]))
        let client = try makeClient(transport: mock, behavior: .httpCache(), clock: TestClock())
        _ = try await client.send(NetworkRequest<Data>(path: "/chat"))
        let socket = try await client.webSocket(WebSocketRequest(path: "/chat"))
        #expect(server.receivedHandshakes.count == 1)
        try await socket.close()
    }

    @Test func aBehaviorAnsweringTheHandshakeItselfFailsTheCall() async throws {
        struct Answering: RequestBehavior {
            func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
                HTTPResponse, HTTPResponse.Body
            ) {
                (HTTPResponse(status: 101), .empty)
            }
        }
        let client = try makeClient(transport: MockTransport(), behavior: Answering())
        let error = try await expectNetworkError { try await client.webSocket(WebSocketRequest(path: "/chat")) }
        #expect(error?.kind == .transport(.other))
        #expect(error?.message.contains("by a behavior") == true)
    }

    @Test func aTransportThatCannotOpenWebSocketsIsATypedError() async throws {
        struct PlainTransport: HTTPTransport {
            func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
                (HTTPResponse(status: 200), .empty)
            }
        }
        let client = try makeClient(transport: PlainTransport())
        let error = try await expectNetworkError { try await client.webSocket(WebSocketRequest(path: "/chat")) }
        #expect(error?.kind == .transport(.other))
        #expect(error?.webSocketError?.kind == .unsupportedTransport)
        #expect(error?.message.contains("PlainTransport") == true)
    }

    @Test func aBadSubprotocolIsRefusedBeforeAnyIO() async throws {
        let mock = MockTransport()
        let client = try makeClient(transport: mock)
        let error = try await expectNetworkError {
            try await client.webSocket(WebSocketRequest(path: "/chat", subprotocols: ["chat room"]))
        }
        #expect(error?.kind == .invalidRequest)
        #expect(mock.requests.isEmpty)
    }

    @Test func wsAndWSSURLsAreSentAsHTTPAndHTTPS() {
        #expect(
            WebSocketRequest.httpURL(for: URL(string: "ws://h.test:8080/a?b=1")!).absoluteString
                == "http://h.test:8080/a?b=1")
        #expect(WebSocketRequest.httpURL(for: URL(string: "WSS://h.test/a")!).absoluteString == "https://h.test/a")
        #expect(WebSocketRequest.httpURL(for: URL(string: "https://h.test/a")!).absoluteString == "https://h.test/a")
    }
}
