import Foundation
import NetworkingCore

/// Why a call with a ``CacheRequestPolicy`` (`.cachePolicy(_:)`) failed before anything was sent: no HTTP cache
/// behavior is in its chain, neither client-wide nor for the call, so nothing could honour the policy. Without this
/// error an `.offline` call would go to the network, which is the one thing it asks not to do.
///
/// The `underlyingError` of that call's `NetworkError` (of kind `behavior("CacheRequestPolicyBehavior")`); a
/// `PolicyRejection`, so retry, hedging and the circuit breaker leave it alone. Add `.httpCache()` to the client, or
/// to the call beside the policy.
public struct MissingHTTPCacheError: PolicyRejection, CustomStringConvertible {
    /// The policy that found no cache.
    public let policy: CacheRequestPolicy

    /// Creates the error, as the policy behavior does; a test of your own code may make one too.
    ///
    /// - Parameter policy: The policy that found no cache.
    public init(policy: CacheRequestPolicy) {
        self.policy = policy
    }

    /// What was asked, that no cache is there to answer it, and how to add one.
    public var description: String {
        let asked = policy.headerValue.isEmpty ? "a cache policy" : "the cache policy \"\(policy.headerValue)\""
        return "\(asked) was given, but no HTTP cache behavior is in the call's chain, so nothing was sent: "
            + "add .httpCache() to the client or to this call"
    }
}

extension MissingHTTPCacheError: LocalizedError {
    /// ``description``, so `localizedDescription` reads the same.
    public var errorDescription: String? { description }
}
