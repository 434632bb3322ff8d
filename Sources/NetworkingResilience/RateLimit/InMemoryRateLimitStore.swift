import Foundation
import NetworkingHTTP
import NetworkingCore

/// The default ``RateLimitStore``: one bucket per key in memory, behind a lock.
///
/// Keys are never forgotten: with the default scope there is one per host and port the app talks to.
public struct InMemoryRateLimitStore: RateLimitStore {
    private let buckets = LockedBox<[String: TokenBucket]>([:])

    /// Creates an empty store.
    public init() {}

    /// Runs `body` on the bucket of `key` under the store's lock, creating it with `initial` when absent.
    ///
    /// - Parameters:
    ///   - key: The scope key.
    ///   - initial: Makes the bucket of a new key.
    ///   - body: Reads and changes the bucket.
    /// - Returns: What `body` returned.
    public func update<T>(_ key: String, initial: () -> TokenBucket, _ body: (inout TokenBucket) -> T) -> T {
        buckets.withLock { buckets in
            body(&buckets[key, default: initial()])
        }
    }

    /// A copy of the bucket of `key`, or `nil` when no call has used it.
    ///
    /// - Parameter key: The scope key.
    /// - Returns: The bucket.
    public func bucket(for key: String) -> TokenBucket? {
        buckets.withLock { $0[key] }
    }
}
