import NetworkingHTTP
import NetworkingCore

/// How long a ``HedgingBehavior`` waits for an attempt before it sends the next one.
public enum HedgingDelay: Sendable, Hashable {
    /// Always the same wait.
    case fixed(Duration)
    /// The given percentile (such as 95) of the latencies the ``LatencyStore`` has seen for the partition; the
    /// `fallback` wait until it holds ``HedgingSettings/minimumSamples`` of them.
    case percentile(Double, fallback: Duration)
}
