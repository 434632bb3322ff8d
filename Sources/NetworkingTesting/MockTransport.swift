import Foundation
import NetworkingHTTP
import NetworkingCore

/// An in-memory `HTTPTransport` for tests: answers from stubs (typed values, raw bytes, scripts, handlers) or
/// from one closure, and records every attempt that reached it.
///
/// Each mock is an instance with its own stubs and records, so tests running in parallel never share state.
/// ```swift
/// let mock = MockTransport()
///     .stub(.get, "/users/1", .success(User(id: 1, name: "Ada")))
///     .stub(.get, "/users/2", .serviceUnavailable(retryAfter: 1), .success(User(id: 2, name: "Lin")))
/// let client = NetworkClient(baseURL: URL(string: "https://api.test")!, transport: mock)
/// let user = try await client.send(NetworkRequest<User>(path: "/users/1"))
/// #expect(mock.recordedRequests.map(\.path) == ["/users/1"])
/// ```
/// A request no stub matches makes `send` throw ``UnmatchedRequestError``, naming the request and listing the
/// stubs, unless the mock was made with a fallback closure: `MockTransport { request in ... }` answers every
/// request the stubs do not.
public final class MockTransport: HTTPTransport {
    /// Produces the raw answer to one request: a response head and its bytes.
    public typealias Handler = @Sendable (HTTPRequest) async throws -> (HTTPResponse, Data)

    /// Produces the answer of one stub to one request, typed values included.
    public typealias StubHandler = @Sendable (RecordedRequest) async throws -> MockResponse

    /// Encodes the typed values of ``MockResponse/success(_:status:headers:)``.
    public let encoder: JSONEncoder
    /// The clock that ``MockResponse/delayed(by:)`` waits on.
    public let clock: any NetworkClock
    private let fallback: Handler?
    package let state = LockedBox(State())

    /// Creates a mock that answers from its stubs only.
    ///
    /// - Parameters:
    ///   - encoder: Encodes typed stub values; give it the strategies matching the client's decoder.
    ///   - clock: The clock delayed answers wait on; a `TestClock` in tests that use delays.
    public init(encoder: JSONEncoder = JSONEncoder(), clock: any NetworkClock = SystemClock()) {
        self.encoder = encoder
        self.clock = clock
        self.fallback = nil
    }

    /// Creates a mock that answers every request no stub matches with `handler`.
    ///
    /// - Parameters:
    ///   - encoder: Encodes typed stub values.
    ///   - clock: The clock delayed answers wait on.
    ///   - handler: Answers requests that match no stub (all of them, when there are no stubs).
    public init(
        encoder: JSONEncoder = JSONEncoder(), clock: any NetworkClock = SystemClock(), _ handler: @escaping Handler
    ) {
        self.encoder = encoder
        self.clock = clock
        self.fallback = handler
    }

    /// Records `request`, then answers it from the best matching stub, the fallback handler, or throws
    /// ``UnmatchedRequestError``.
    ///
    /// A `.streamed` stub's body arrives chunk by chunk on the mock's clock, respecting the reader's backpressure;
    /// every other answer is in memory.
    ///
    /// - Parameter request: The request as sent after every behavior ran.
    /// - Returns: The stubbed response head and body.
    /// - Throws: The stubbed error, ``UnmatchedRequestError``, or `CancellationError`.
    public func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
        switch try await resolve(request) {
        case .direct(let response, let data):
            return (response, .data(data))
        case .mock(let response):
            if let streamed = try streamed(response, to: request) { return streamed }
            let (head, data) = try response.answer(to: request, encoder: encoder)
            var body = HTTPBody.data(data)
            body.trailerFields = response.trailerFields
            return (head, body)
        }
    }

    /// What answers `request`: a stub's response (after its delay), or the fallback handler's answer.
    package enum Resolution {
        case mock(MockResponse)
        case direct(HTTPResponse, Data)
    }

    package func resolve(_ request: HTTPRequest) async throws -> Resolution {
        let recorded = RecordedRequest(request, body: await RecordedRequest.capture(request.body))
        let action = state.withLock { state in
            state.records.append(recorded)
            return state.nextAction(for: recorded)
        }
        try Task.checkCancellation()
        let response: MockResponse
        switch action {
        case .respond(let scripted):
            response = scripted
        case .handle(let handler):
            response = try await handler(recorded)
        case .unmatched(let stubs):
            if let fallback {
                let (head, data) = try await fallback(request)
                return .direct(head, data)
            }
            throw UnmatchedRequestError(request: recorded.description, stubs: stubs)
        }
        if let delay = response.delay { try await clock.sleep(for: delay) }
        return .mock(response)
    }

    /// Every request that reached the transport, in order, as sent after all behaviors ran.
    public var requests: [HTTPRequest] { state.withLock { $0.records.map(\.request) } }

    /// Every request that reached the transport, in order, with assertion helpers.
    public var recordedRequests: [RecordedRequest] { state.withLock { $0.records } }

    /// The last request that reached the transport, if any.
    public var lastRequest: RecordedRequest? { state.withLock { $0.records.last } }

    /// How many requests reached the transport.
    public var requestCount: Int { state.withLock { $0.records.count } }

    /// The recorded requests that `method` and `path` match, with the rules of ``StubMatcher``.
    ///
    /// - Parameters:
    ///   - method: The method; `nil` for any.
    ///   - path: The path pattern, such as `/users/*`.
    ///   - query: Query items the requests must carry.
    /// - Returns: The matching requests, in order.
    public func requests(to method: HTTPMethod?, _ path: String, query: [String: String] = [:]) -> [RecordedRequest] {
        let matcher = StubMatcher(method: method, path: path, query: query)
        return recordedRequests.filter(matcher.matches)
    }
}

extension MockTransport {
    /// What `send` does for one request, decided under the lock.
    package enum Action {
        case respond(MockResponse)
        case handle(StubHandler)
        case unmatched([String])
    }

    /// One stub: what it matches, what it answers, and how many times it answered.
    package struct Stub {
        enum Source {
            case script([MockResponse])
            case handler(StubHandler)
        }

        let matcher: StubMatcher
        let source: Source
        var served = 0
    }

    /// The mock's mutable state, kept in a `LockedBox`.
    package struct State {
        var stubs: [Stub] = []
        var records: [RecordedRequest] = []
        /// Streamed bodies still being produced.
        var openStreams = 0
        /// The WebSocket stubs (``MockTransport/stubWebSocket(_:_:)``), in the order they were added.
        var webSocketStubs: [(StubMatcher, MockWebSocketServer)] = []

        /// Picks the most specific matching stub (the latest on a tie) and advances its script.
        mutating func nextAction(for request: RecordedRequest) -> Action {
            var best: Int?
            for index in stubs.indices where stubs[index].matcher.matches(request) {
                if let current = best, stubs[current].matcher.specificity > stubs[index].matcher.specificity {
                    continue
                }
                best = index
            }
            guard let index = best else { return .unmatched(stubs.map(\.matcher.description)) }
            defer { stubs[index].served += 1 }
            switch stubs[index].source {
            case .script(let responses):
                return .respond(responses[min(stubs[index].served, responses.count - 1)])
            case .handler(let handler):
                return .handle(handler)
            }
        }
    }
}
