import Foundation
import Networking
import NetworkingTesting

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

/// A test expectation that did not hold. The helpers of this target throw it, so the test fails with its message:
/// the target imports no test framework and builds as an ordinary library on every toolchain (on Apple platforms
/// only test targets find `Testing` and `XCTest`).
package struct ExpectationFailure: Error, CustomStringConvertible {
    package let description: String

    package init(_ what: String, fileID: String = #fileID, line: Int = #line) {
        description = "\(what) (at \(fileID):\(line))"
    }
}

/// Runs `body` and returns the `NetworkError` it throws (never `nil`: optional so a test reads `error?.kind`);
/// throws ``ExpectationFailure`` when `body` throws something else or nothing.
package func expectNetworkError<T>(
    fileID: String = #fileID, line: Int = #line, _ body: () async throws -> T
) async throws -> NetworkError? {
    try await expectError(NetworkError.self, fileID: fileID, line: line, body)
}

/// Runs `body` and returns the `E` it throws (never `nil`); throws ``ExpectationFailure`` when `body` throws
/// something else or nothing. What Swift Testing 6.1's `#expect(throws:)` returns, for Swift 6.0 too.
package func expectError<E: Error, T>(
    _ type: E.Type, fileID: String = #fileID, line: Int = #line, _ body: () async throws -> T
) async throws -> E? {
    let value: T
    do {
        value = try await body()
    } catch let error as E {
        return error
    } catch {
        throw ExpectationFailure(
            "expected \(E.self), got \(Swift.type(of: error)): \(error)", fileID: fileID, line: line)
    }
    throw ExpectationFailure("expected \(E.self), got \(value)", fileID: fileID, line: line)
}

/// The synchronous form of ``expectError(_:fileID:line:_:)-async``.
package func expectError<E: Error, T>(
    _ type: E.Type, fileID: String = #fileID, line: Int = #line, _ body: () throws -> T
) throws -> E? {
    let value: T
    do {
        value = try body()
    } catch let error as E {
        return error
    } catch {
        throw ExpectationFailure(
            "expected \(E.self), got \(Swift.type(of: error)): \(error)", fileID: fileID, line: line)
    }
    throw ExpectationFailure("expected \(E.self), got \(value)", fileID: fileID, line: line)
}
