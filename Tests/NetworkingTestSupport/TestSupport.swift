import Foundation
import Networking
import NetworkingTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A small model used across tests.
package struct User: Codable, Equatable, Sendable {
    package let id: Int
    package let name: String
    package init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}

/// An error thrown by test doubles.
package struct TestError: Error, Equatable {
    package let tag: String
    package init(_ tag: String = "test") { self.tag = tag }
}

package let testBaseURL = URL(string: "https://api.example.test/v1")!

/// A client on `transport` with `behavior`, a test clock and the test base URL; a conflict in `behavior` is thrown
/// (`NetworkClient(validating:)`), so tests of conflicts read it instead of stopping the test process.
package func makeClient(
    transport: any HTTPTransport,
    behavior: any RequestBehavior = EmptyBehavior(),
    clock: any NetworkClock = SystemClock(),
    timeout: Duration = .seconds(60),
    deadline: Duration? = .seconds(300)
) throws -> NetworkClient {
    try NetworkClient(
        validating: .init(
            baseURL: testBaseURL, transport: transport, behavior: behavior, timeout: timeout, deadline: deadline,
            clock: clock))
}

/// A transport answering every request with `status`, `body` and `headers`.
package func answering(
    _ status: Int = 200, body: String = "", headers: HTTPFields = [:]
) -> MockTransport {
    MockTransport { request in
        (HTTPResponse(status: .init(code: status), headerFields: headers, url: request.url), Data(body.utf8))
    }
}

/// Runs `body` and returns the `NetworkError` it throws; records an issue when it throws something else or nothing.
package func expectNetworkError<T>(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> T
) async -> NetworkError? {
    do {
        let value = try await body()
        Issue.record("expected a NetworkError, got \(value)", sourceLocation: sourceLocation)
        return nil
    } catch let error as NetworkError {
        return error
    } catch {
        Issue.record("expected a NetworkError, got \(type(of: error)): \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
