import Foundation
import NetworkingHTTP
import NetworkingCore

/// Where a ``RateLimitBehavior`` keeps one ``TokenBucket`` per scope key.
///
/// The default, ``InMemoryRateLimitStore``, keeps them in memory under a lock. Share one store between limiters
/// (or clients) to share their buckets, so that a `429` seen by one pauses the host for all. Every update must be
/// atomic: no other update of the same key may run between reading and writing the bucket.
public protocol RateLimitStore: Sendable {
    /// Runs `body` on the bucket of `key` as one atomic step, creating it with `initial` first when the key has
    /// none.
    ///
    /// - Parameters:
    ///   - key: The scope key, such as `api.example.com:443`.
    ///   - initial: Makes the bucket of a key seen for the first time.
    ///   - body: Reads and changes the bucket; it must be quick and must not call the store.
    /// - Returns: What `body` returned.
    func update<T>(_ key: String, initial: () -> TokenBucket, _ body: (inout TokenBucket) -> T) -> T
}
