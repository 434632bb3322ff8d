import NetworkingHTTP
import NetworkingCore

/// The most recent latencies of one partition, at most ``capacity`` of them, and their percentiles: the pure rule
/// behind a percentile ``HedgingDelay``.
///
/// Percentiles use the nearest-rank method: the `p`th percentile of `n` latencies is the `⌈p/100 × n⌉`th smallest,
/// always a latency that was actually seen.
public struct LatencyWindow: Sendable, Equatable {
    /// The default of ``capacity``: 100, enough for a steady 95th percentile (five latencies above it) while
    /// following a server whose speed changes within a hundred calls.
    public static let defaultCapacity = 100

    /// The most latencies kept; the oldest is dropped for a new one.
    public let capacity: Int
    /// The latencies kept, in no particular order.
    public private(set) var samples: [Duration] = []
    private var oldest = 0

    /// An empty window.
    ///
    /// - Parameter capacity: The most latencies kept; values below 1 are taken as 1.
    public init(capacity: Int = defaultCapacity) {
        self.capacity = max(capacity, 1)
    }

    /// Adds a latency, dropping the oldest when full.
    ///
    /// - Parameter latency: How long a successful attempt took.
    public mutating func record(_ latency: Duration) {
        if samples.count < capacity {
            samples.append(latency)
        } else {
            samples[oldest] = latency
            oldest = (oldest + 1) % capacity
        }
    }

    /// The nearest-rank percentile of the latencies kept.
    ///
    /// - Parameter percentile: Between 0 and 100, such as 95.
    /// - Returns: The latency at that rank; `nil` when the window is empty.
    public func percentile(_ percentile: Double) -> Duration? {
        guard !samples.isEmpty, !percentile.isNaN else { return nil }
        let sorted = samples.sorted()
        let clamped = min(max(percentile, 0), 100)
        // p × n first: for a whole p it is exact, so p × n / 100 is the true ratio, rounded once (p / 100 × n
        // could land just above a whole number and round up one rank too far: 55 % of 100 gave the 56th).
        let rank = Int((clamped * Double(sorted.count) / 100).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
