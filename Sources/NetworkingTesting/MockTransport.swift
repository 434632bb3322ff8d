import Foundation
import Networking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An in-memory ``HTTPTransport`` for tests: answers with a closure and records every attempt that reached it.
///
/// Each mock is an instance with its own state, so tests running in parallel never share one.
/// ```swift
/// let transport = MockTransport { request in
///     try .json(User(id: 1, name: "Ada"), for: request)
/// }
/// let client = NetworkClient(baseURL: URL(string: "https://api.test")!, transport: transport)
/// _ = try await client.send(NetworkRequest<User>(path: "/users/1"))
/// #expect(transport.requests.map(\.url?.path) == ["/users/1"])
/// ```
public final class MockTransport: HTTPTransport {
    /// Produces the answer to one request.
    public typealias Handler = @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)

    private let handler: Handler
    private let recorded = LockedBox<[URLRequest]>([])

    /// Creates a mock that answers every request with `handler`.
    public init(_ handler: @escaping Handler) {
        self.handler = handler
    }

    /// Records `request`, then answers it with the handler.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        recorded.withLock { $0.append(request) }
        try Task.checkCancellation()
        return try await handler(request)
    }

    /// Every request that reached the transport, in order, as sent after all behaviors ran.
    public var requests: [URLRequest] { recorded.current }

    /// How many requests reached the transport.
    public var requestCount: Int { recorded.withLock { $0.count } }
}

extension HTTPURLResponse {
    /// A response to `request` with `status` and `headers`; for building test answers.
    public static func stub(
        for request: URLRequest, status: Int = 200, headers: [String: String] = [:]
    ) -> HTTPURLResponse {
        let url = request.url ?? URL(string: "http://invalid.test/")!
        return HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
    }
}
