import Foundation
import NetworkingHTTP
import NetworkingCore

/// An access token and when it stops being valid, as used by ``TokenRefreshBehavior``. `Codable`, to keep it in the
/// keychain between launches.
public struct AccessCredential: Sendable, Hashable, Codable {
    /// The token sent in the `Authorization` header.
    public var token: String
    /// When the token expires, if known. A token within the behavior's leeway of expiry is refreshed before use.
    public var expiresAt: Date?

    /// Creates a credential.
    ///
    /// - Parameters:
    ///   - token: The access token.
    ///   - expiresAt: When it expires; `nil` if unknown (then only a 401 triggers a refresh).
    public init(token: String, expiresAt: Date? = nil) {
        self.token = token
        self.expiresAt = expiresAt
    }
}

/// Obtains a new ``AccessCredential``, typically by sending a refresh token to the auth server.
///
/// ``TokenRefreshBehavior`` calls it once for all the calls that need a new credential at the same time. A refresh
/// every waiting call has given up on (each ends at its own time limits) is abandoned, and the next call starts
/// another: a refresher that can be slower than the attempt timeout may then run twice at once.
public protocol TokenRefresher: Sendable {
    /// Returns a new credential.
    ///
    /// - Parameter expired: The credential being replaced, or `nil` when there was none.
    /// - Returns: The new credential.
    /// - Throws: Any error; it reaches every waiting call as ``TokenRefreshError/refreshFailed(_:)``.
    func refresh(replacing expired: AccessCredential?) async throws -> AccessCredential
}

/// A ``TokenRefresher`` backed by a closure.
public struct ClosureTokenRefresher: TokenRefresher {
    private let body: @Sendable (AccessCredential?) async throws -> AccessCredential

    /// Creates a refresher that runs `body`.
    ///
    /// - Parameter body: Receives the credential being replaced and returns the new one.
    public init(_ body: @escaping @Sendable (AccessCredential?) async throws -> AccessCredential) {
        self.body = body
    }

    /// Runs the closure.
    public func refresh(replacing expired: AccessCredential?) async throws -> AccessCredential {
        try await body(expired)
    }
}

/// Why ``TokenRefreshBehavior`` could not provide a credential. Reaches callers inside a `NetworkError` of kind
/// `behavior("TokenRefreshBehavior")`.
public enum TokenRefreshError: Error, Sendable, CustomStringConvertible {
    /// The refresher threw; every call waiting for that refresh receives this error.
    case refreshFailed(any Error)
    /// More refreshes were needed within the window than allowed: the server keeps rejecting fresh credentials, or
    /// refreshes keep being abandoned (the refresher is slower than the calls' time limits).
    case refreshLimitReached(limit: Int, window: Duration)

    /// A sentence for logs.
    public var description: String {
        switch self {
        case .refreshFailed(let error):
            "the credential refresh failed: \(error)"
        case .refreshLimitReached(let limit, let window):
            "refused to refresh the credential more than \(limit) times within \(window): the server keeps refusing new credentials, or the refresher keeps outlasting the calls waiting for it"
        }
    }
}

extension TokenRefreshError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` reads as well.
    public var errorDescription: String? { description }
}
