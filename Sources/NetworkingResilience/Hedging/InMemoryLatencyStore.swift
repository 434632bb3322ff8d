import NetworkingHTTP
import NetworkingCore

/// The default ``LatencyStore``: one ``LatencyWindow`` per partition behind one lock.
public final class InMemoryLatencyStore: LatencyStore {
    private let windows = LockedBox<[String: LatencyWindow]>([:])
    private let capacity: Int

    /// Creates an empty store.
    ///
    /// - Parameter capacity: The latencies kept per partition; ``LatencyWindow/defaultCapacity`` unless given.
    public init(capacity: Int = LatencyWindow.defaultCapacity) {
        self.capacity = capacity
    }

    /// Adds a latency to the partition's window.
    ///
    /// - Parameters:
    ///   - latency: How long a successful attempt took.
    ///   - key: The partition.
    public func record(_ latency: Duration, for key: String) {
        windows.withLock { $0[key, default: LatencyWindow(capacity: capacity)].record(latency) }
    }

    /// The percentile of the partition's window, once it holds `minimumSamples` latencies.
    ///
    /// - Parameters:
    ///   - percentile: Between 0 and 100.
    ///   - key: The partition.
    ///   - minimumSamples: The fewest latencies worth a percentile.
    /// - Returns: The percentile, or `nil`.
    public func percentile(_ percentile: Double, for key: String, minimumSamples: Int) -> Duration? {
        guard let window = windows.withLock({ $0[key] }), window.samples.count >= minimumSamples else { return nil }
        return window.percentile(percentile)
    }

    /// The latencies kept for the partition `key`.
    ///
    /// - Parameter key: The partition.
    /// - Returns: Its latencies, in no particular order.
    public func samples(for key: String) -> [Duration] {
        windows.withLock { $0[key]?.samples ?? [] }
    }
}
