import Foundation
import NetworkingCore

/// Why an ``HTTPCacheBehavior`` answered a request that says `only-if-cached` with a `504` (RFC 9111 §5.2.1.7): no
/// stored response could answer it, and the request may not go to the network. The `underlyingError` of that
/// call's `NetworkError`; a `PolicyRejection`, so retry, hedging and the circuit breaker leave it alone.
public struct OnlyIfCachedMiss: PolicyRejection, CustomStringConvertible {
    /// What kept the stored response from answering: none stored, none for this `Vary`, stale, too old.
    public let reason: String

    /// Creates the error, as the cache does; a test of your own code may make one too.
    ///
    /// - Parameter reason: What kept the stored response from answering.
    public init(reason: String) {
        self.reason = reason
    }

    /// `only-if-cached: <reason>`.
    public var description: String { "only-if-cached: \(reason)" }
}

extension OnlyIfCachedMiss: LocalizedError {
    /// ``description``, so `localizedDescription` reads the same.
    public var errorDescription: String? { description }
}
