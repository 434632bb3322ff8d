import Foundation
import NetworkingHTTP
import NetworkingCore

/// Thrown by a ``MockTransport`` when a request matches none of its stubs and the mock has no fallback handler.
///
/// The client reports it as a `Networking/NetworkError` of kind `transport(other)` whose message is this error's
/// description and whose `underlyingError` is this error, so a failing test says at once what was asked and what
/// was stubbed:
/// ```
/// no stub for GET /v1/users/7?page=2; stubs: GET /users/1, POST /users
/// ```
public struct UnmatchedRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The request that found no stub, as `METHOD /path?query`.
    public let request: String
    /// The stubs the mock had, in the order they were added, such as `GET /users/*`.
    public let stubs: [String]

    /// Creates the error.
    ///
    /// - Parameters:
    ///   - request: The request, as `METHOD /path?query`.
    ///   - stubs: Descriptions of the stubs that exist.
    public init(request: String, stubs: [String]) {
        self.request = request
        self.stubs = stubs
    }

    /// `no stub for GET /users/7; stubs: GET /users/1, POST /users`.
    public var description: String {
        let known = stubs.isEmpty ? "the mock has no stubs" : "stubs: " + stubs.joined(separator: ", ")
        return "no stub for \(request); \(known)"
    }
}

extension UnmatchedRequestError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` reads as well.
    public var errorDescription: String? { description }
}
