import Foundation
import NetworkingHTTP
import NetworkingCore

/// Where an ``HTTPCacheBehavior`` keeps its stored responses: one ``HTTPCacheEntry`` per key (the request's URL).
///
/// Two stores come with the package: ``InMemoryHTTPCacheStore`` (a byte-limited LRU in memory) and ``DiskHTTPCacheStore``
/// (a folder that survives restarts). A store of your own must be safe to call from many tasks at once, must
/// never throw (a store that cannot read or write simply misses), and should return what was set last for a key.
///
/// ```swift
/// let cache = HTTPCacheBehavior(store: InMemoryHTTPCacheStore())
/// ```
public protocol HTTPCacheStore: Sendable {
    /// The entry stored for `key`, or `nil`.
    ///
    /// - Parameter key: The cache key, such as `https://api.example.com/v1/items?page=2`.
    /// - Returns: The entry, or `nil` when there is none or it cannot be read.
    func entry(forKey key: String) async -> HTTPCacheEntry?

    /// Stores `entry` for `key`, replacing what was there.
    ///
    /// - Parameters:
    ///   - entry: The entry.
    ///   - key: The cache key.
    func setEntry(_ entry: HTTPCacheEntry, forKey key: String) async

    /// Removes the entry for `key`, if any.
    ///
    /// - Parameter key: The cache key.
    func removeEntry(forKey key: String) async

    /// Removes every entry.
    func removeAll() async
}
