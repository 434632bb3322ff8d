import NetworkingHTTP
import NetworkingCore

/// Where ``AuthorizationBehavior`` reads the credential it puts on each attempt.
///
/// The behavior asks on **every attempt**, so a token refreshed between a failed attempt and its retry is used
/// by the retry. Return `nil` (or an empty string) when there is no credential, for example before log-in: the
/// request then goes out without the header. An error thrown here stops the call; the client reports it as
/// `NetworkError` of kind `behavior("AuthorizationBehavior")` with this error as the underlying error.
///
/// Implement it over your keychain, session object or refresh logic:
/// ```swift
/// struct KeychainTokenStore: TokenStore {
///     let keychain: Keychain
///     func token() async throws -> String? { try keychain.read("access-token") }
/// }
/// ```
/// ``InMemoryTokenStore`` holds a value you set; ``ClosureTokenStore`` wraps a closure.
public protocol TokenStore: Sendable {
    /// The current credential, or `nil` when there is none.
    ///
    /// - Returns: The raw token (for ``AuthorizationScheme/basic``, `user:password`), without a scheme prefix.
    /// - Throws: Any error that should fail the call, such as a keychain read failure.
    func token() async throws -> String?
}
