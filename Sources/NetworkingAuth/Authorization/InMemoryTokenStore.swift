import NetworkingHTTP
import NetworkingCore

/// A ``TokenStore`` holding one token in memory, for apps that set it after log-in and clear it on log-out.
///
/// ```swift
/// let tokens = InMemoryTokenStore()
/// let client = NetworkClient(baseURL: apiURL, behavior: .authorization(.bearer, store: tokens))
/// tokens.set(loginResponse.accessToken)
/// ```
/// Safe to share between tasks: reads and writes go through a lock. It never throws.
public final class InMemoryTokenStore: TokenStore {
    private let storage: LockedBox<String?>

    /// Creates a store holding `token`.
    ///
    /// - Parameter token: The initial token; `nil` (the default) means no credential yet.
    public init(_ token: String? = nil) {
        storage = LockedBox(token)
    }

    /// Replaces the token; the next attempt of any call uses the new value.
    ///
    /// - Parameter token: The new token, or `nil` to send requests without the header.
    public func set(_ token: String?) {
        storage.withLock { $0 = token }
    }

    /// The token currently held.
    ///
    /// - Returns: The token, or `nil` when none is set.
    public func token() async -> String? {
        storage.current
    }
}
