import NetworkingHTTP
import NetworkingCore

/// The default ``ActivityCounterStore``: an integer behind a lock. It never goes below zero.
public final class InMemoryActivityCounterStore: ActivityCounterStore {
    private let value = LockedBox(0)

    /// Creates a counter at zero.
    public init() {}

    /// The number of calls in flight now.
    public var count: Int { value.current }

    /// Adds one.
    ///
    /// - Returns: The new count.
    public func increment() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }

    /// Subtracts one, stopping at zero so an unpaired call cannot make the count negative.
    ///
    /// - Returns: The new count.
    public func decrement() -> Int {
        value.withLock {
            $0 = max($0 - 1, 0)
            return $0
        }
    }
}
