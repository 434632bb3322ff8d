import NetworkingHTTP
import NetworkingCore

/// The number of calls in flight, counted by ``ActivityCounterBehavior``.
///
/// Every ``increment()`` is followed by exactly one ``decrement()``. Implementations must be safe to call from
/// any task; the behavior calls them while holding its own lock, so they must return quickly and must not call
/// back into the behavior. ``InMemoryActivityCounterStore`` is the default:
/// ```swift
/// final class MetricsCounter: ActivityCounterStore {
///     private let inner = InMemoryActivityCounterStore()
///     var count: Int { inner.count }
///     func increment() -> Int { let n = inner.increment(); metrics.gauge("http.inflight", n); return n }
///     func decrement() -> Int { let n = inner.decrement(); metrics.gauge("http.inflight", n); return n }
/// }
/// ```
public protocol ActivityCounterStore: Sendable {
    /// The number of calls in flight now.
    var count: Int { get }

    /// Records one more call in flight.
    ///
    /// - Returns: The count after the increment; `1` means the client just became busy.
    func increment() -> Int

    /// Records one call fewer in flight.
    ///
    /// - Returns: The count after the decrement; `0` means the client just became idle.
    func decrement() -> Int
}
