import NetworkingHTTP
import NetworkingCore

/// Where a ``HedgingBehavior`` keeps the latencies of successful attempts, per partition, to compute a percentile
/// delay. Inject one to share latencies between clients, to seed them, or to read them in tests;
/// ``InMemoryLatencyStore`` is the default. Both methods are called from many tasks at once and must be quick.
public protocol LatencyStore: Sendable {
    /// Records how long a successful attempt of the partition `key` took.
    ///
    /// - Parameters:
    ///   - latency: From sending the attempt to its answer, on the behavior's clock.
    ///   - key: The partition, from the settings' ``BehaviorScope``.
    func record(_ latency: Duration, for key: String)

    /// The given percentile of the partition's latencies, or `nil` while it has fewer than `minimumSamples`.
    ///
    /// - Parameters:
    ///   - percentile: Between 0 and 100, such as 95.
    ///   - key: The partition.
    ///   - minimumSamples: The fewest latencies worth a percentile.
    /// - Returns: The percentile, or `nil`.
    func percentile(_ percentile: Double, for key: String, minimumSamples: Int) -> Duration?
}
