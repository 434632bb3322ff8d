import NetworkingHTTP
import NetworkingCore

/// A ``TokenStore`` that asks a closure on every attempt: the shortest way to plug in an existing token source.
///
/// ```swift
/// let behavior = AuthorizationBehavior(.bearer, store: ClosureTokenStore { try await session.validAccessToken() })
/// ```
/// Usually built through `.authorization(.bearer) { ... }`.
public struct ClosureTokenStore: TokenStore {
    private let read: @Sendable () async throws -> String?

    /// Creates a store that calls `read` for each attempt.
    ///
    /// - Parameter read: Returns the current token or `nil`; an error it throws fails the call.
    public init(_ read: @escaping @Sendable () async throws -> String?) {
        self.read = read
    }

    /// Calls the closure.
    ///
    /// - Returns: What the closure returned.
    /// - Throws: What the closure threw.
    public func token() async throws -> String? {
        try await read()
    }
}
