import NetworkingHTTP
import NetworkingCore

/// Where a ``ConcurrencyLimitBehavior`` keeps its partitions: inject one to share limits between clients or to
/// read them in tests. ``InMemoryConcurrencyLimitStore`` is the default.
///
/// ``withPartition(_:_:)`` must run `body` under a lock that excludes every other call for the same key, and keep
/// what `body` leaves. The body is synchronous, short and never suspends. A store may forget a partition that is
/// ``ConcurrencyLimitPartition/isIdle``.
/// ```swift
/// let store = InMemoryConcurrencyLimitStore()
/// let limit = ConcurrencyLimitBehavior(settings: .default, store: store)
/// let busy = store.withPartition("") { $0.permits.inFlight }  // the `.client` scope's key is ""
/// ```
public protocol ConcurrencyLimitStore: Sendable {
    /// Runs `body` on the partition named `key` (a new, idle one if absent) with exclusive access, and keeps its
    /// changes.
    ///
    /// - Parameters:
    ///   - key: The partition's key, from the settings' ``BehaviorScope``.
    ///   - body: Reads and changes the partition; quick and synchronous.
    /// - Returns: What `body` returned.
    func withPartition<T>(_ key: String, _ body: (inout ConcurrencyLimitPartition) -> T) -> T
}
