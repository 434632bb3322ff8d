import NetworkingHTTP
import NetworkingCore

/// The default ``ConcurrencyLimitStore``: partitions in a dictionary behind one lock. Idle partitions are dropped,
/// so a `.custom` scope with many keys holds memory only for the keys in use.
public final class InMemoryConcurrencyLimitStore: ConcurrencyLimitStore {
    private let partitions = LockedBox<[String: ConcurrencyLimitPartition]>([:])

    /// Creates an empty store.
    public init() {}

    /// Runs `body` on the partition `key` under the store's lock.
    ///
    /// - Parameters:
    ///   - key: The partition's key.
    ///   - body: Reads and changes the partition.
    /// - Returns: What `body` returned.
    public func withPartition<T>(_ key: String, _ body: (inout ConcurrencyLimitPartition) -> T) -> T {
        partitions.withLock { partitions in
            var partition = partitions.removeValue(forKey: key) ?? ConcurrencyLimitPartition()
            let result = body(&partition)
            if !partition.isIdle { partitions[key] = partition }
            return result
        }
    }

    /// The keys of the partitions with calls in flight or waiting.
    public var activeKeys: Set<String> { partitions.withLock { Set($0.keys) } }
}
