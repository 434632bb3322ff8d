import Foundation
import NetworkingHTTP
import NetworkingCore

/// An ``HTTPCacheStore`` in memory: least recently used entries go first once the stored entries' total
/// ``HTTPCacheEntry/cost`` would exceed ``maximumBytes``. Lost when the process ends.
///
/// ```swift
/// let store = try InMemoryHTTPCacheStore(maximumBytes: 50 << 20)
/// let cache = HTTPCacheBehavior(store: store)
/// ```
///
/// An entry larger than the whole limit is not stored. Reads count as use. Each operation holds one lock and costs
/// amortized O(log n) at most (the use order is compacted now and then); copies of a store share its entries.
public struct InMemoryHTTPCacheStore: HTTPCacheStore {
    /// The default limit, 10 MiB: room for a few thousand typical JSON responses without pressuring a phone's memory.
    public static let defaultMaximumBytes = 10 << 20

    /// The most bytes the stored entries may count together.
    public let maximumBytes: Int
    private let state = LockedBox(LRU())

    /// Creates a store with the default limit of 10 MiB.
    public init() {
        maximumBytes = Self.defaultMaximumBytes
    }

    /// Creates a store with a limit of your own.
    ///
    /// - Parameter maximumBytes: The most bytes the entries may count together; at least 1.
    /// - Throws: `BehaviorSettingsError` when `maximumBytes` is below 1.
    public init(maximumBytes: Int) throws {
        try BehaviorSettingsError.require(maximumBytes, atLeast: 1, "maximumBytes", in: "InMemoryHTTPCacheStore")
        self.maximumBytes = maximumBytes
    }

    /// The bytes the stored entries count together.
    public var totalCost: Int { state.withLock { $0.totalCost } }

    /// The number of stored entries.
    public var count: Int { state.withLock { $0.entries.count } }

    /// The slots of the use order, read ones included: at most twice ``count`` plus a small constant, whatever the
    /// traffic (for tests).
    package var useOrderSlotCount: Int { state.withLock { $0.queue.count } }

    /// The entry for `key`, marked as most recently used.
    ///
    /// - Parameter key: The cache key.
    /// - Returns: The entry, or `nil`.
    public func entry(forKey key: String) -> HTTPCacheEntry? {
        state.withLock { $0.get(key) }
    }

    /// Stores `entry`, evicting the least recently used entries beyond the limit.
    ///
    /// - Parameters:
    ///   - entry: The entry.
    ///   - key: The cache key.
    public func setEntry(_ entry: HTTPCacheEntry, forKey key: String) {
        let limit = maximumBytes
        state.withLock { $0.set(entry, for: key, limit: limit) }
    }

    /// Removes the entry for `key`.
    ///
    /// - Parameter key: The cache key.
    public func removeEntry(forKey key: String) {
        state.withLock { _ = $0.remove(key) }
    }

    /// Removes every entry.
    public func removeAll() {
        state.withLock { $0 = LRU() }
    }

    /// Entries with a use stamp, and a queue of (stamp, key) in use order whose stale pairs are skipped lazily.
    private struct LRU {
        var entries: [String: (entry: HTTPCacheEntry, cost: Int, stamp: UInt64)] = [:]
        var queue: [(stamp: UInt64, key: String)] = []
        var head = 0
        var clock: UInt64 = 0
        var totalCost = 0

        mutating func get(_ key: String) -> HTTPCacheEntry? {
            guard var found = entries[key] else { return nil }
            found.stamp = touch(key)
            entries[key] = found
            return found.entry
        }

        mutating func set(_ entry: HTTPCacheEntry, for key: String, limit: Int) {
            _ = remove(key)
            let cost = entry.cost
            guard cost <= limit else { return }
            while totalCost + cost > limit, evictOldest() {}
            entries[key] = (entry, cost, touch(key))
            totalCost += cost
        }

        mutating func remove(_ key: String) -> Bool {
            guard let old = entries.removeValue(forKey: key) else { return false }
            totalCost -= old.cost
            return true
        }

        private mutating func touch(_ key: String) -> UInt64 {
            // The whole queue counts, the pairs eviction has already read included: counting only those after
            // `head` let a full cache, which reads one pair for each one it adds, keep every pair (and its key) ever
            // added.
            if queue.count > 2 * entries.count + 64 {
                // Mostly stale or read pairs: rebuild from the live stamps, keeping the use order.
                queue = entries.map { (stamp: $0.value.stamp, key: $0.key) }.sorted { $0.stamp < $1.stamp }
                head = 0
            }
            clock &+= 1
            queue.append((clock, key))
            return clock
        }

        /// Removes the least recently used entry; `false` when there is none.
        private mutating func evictOldest() -> Bool {
            while head < queue.count {
                let (stamp, key) = queue[head]
                head += 1
                if let current = entries[key], current.stamp == stamp {
                    return remove(key)
                }
            }
            return false
        }
    }
}
