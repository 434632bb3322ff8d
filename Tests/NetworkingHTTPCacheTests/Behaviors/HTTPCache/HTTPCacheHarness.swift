import Foundation
import Networking
import NetworkingTesting
import NetworkingTestSupport

/// A client with an HTTP cache over a scripted mock server, on virtual time, recording the cache's events.
struct HTTPCacheHarness {
    let clock: TestClock
    let transport: MockTransport
    let events = LockedBox<[HTTPCacheEvent]>([])
    let store: any HTTPCacheStore
    let client: NetworkClient
    let cache: HTTPCacheBehavior
    /// Every event, as it happens, for a test that waits for one from a background revalidation.
    let eventStream: AsyncStream<HTTPCacheEvent>

    /// `answer` produces each response from the request that reached the server.
    init(
        store: any HTTPCacheStore = InMemoryHTTPCacheStore(), mode: HTTPCacheBehavior.Mode = .private,
        outer: [any RequestBehavior] = [], clock: TestClock = TestClock(mode: .manual),
        answer: @escaping @Sendable (HTTPRequest) throws -> (Int, HTTPFields, String)
    ) throws {
        self.store = store
        self.clock = clock
        transport = MockTransport { request in
            let (status, fields, body) = try answer(request)
            return (HTTPResponse(status: .init(code: status), headerFields: fields, url: request.url), Data(body.utf8))
        }
        let events = self.events
        let (stream, continuation) = AsyncStream.makeStream(of: HTTPCacheEvent.self)
        eventStream = stream
        cache = HTTPCacheBehavior(store: store, mode: mode, clock: clock) { event in
            events.withLock { $0.append(event) }
            continuation.yield(event)
        }
        client = NetworkClient(
            configuration: .init(
                baseURL: URL(string: "https://api.test")!, transport: transport,
                behavior: CombinedBehavior(outer + [cache]), clock: clock))
    }

    /// Sends `GET path` (or `method`) and returns the response and its body as text.
    @discardableResult
    func get(
        _ path: String = "/items", method: HTTPMethod = .get, headers: HTTPFields = [:]
    ) async throws -> (HTTPResponse, String) {
        let response = try await client.response(for: NetworkRequest<Data>(method, path: path, headers: headers))
        return (response.response, String(decoding: response.body, as: UTF8.self))
    }

    /// Waits until the cache reports an event of `kind` (events already seen count) and returns it.
    @discardableResult
    func next(_ kind: HTTPCacheEvent.Kind) async -> HTTPCacheEvent? {
        for await event in eventStream where event.kind == kind { return event }
        return nil
    }

    var sends: Int { transport.requestCount }
    var kinds: [HTTPCacheEvent.Kind] { events.current.filter { $0.kind != .ignoredHeader }.map(\.kind) }
    var lastSent: HTTPRequest? { transport.requests.last }
}
