import Foundation
import NetworkingHTTP
import NetworkingCore

/// Where ``MetricsBehavior`` delivers each attempt's ``AttemptMetrics``.
///
/// The behavior calls ``record(_:)`` on the calling task as each attempt ends, before the outcome goes back up
/// the chain: keep it quick (append to a buffer, hand to an actor or your metrics system).
/// ```swift
/// let sink = MetricsSink { metrics in print(metrics) }
/// ```
public struct MetricsSink: Sendable {
    private let body: @Sendable (AttemptMetrics) -> Void

    /// Creates a sink from a closure.
    ///
    /// - Parameter record: Receives each attempt's measurements.
    public init(_ record: @escaping @Sendable (AttemptMetrics) -> Void) {
        self.body = record
    }

    /// Delivers one attempt's measurements.
    ///
    /// - Parameter metrics: The measurements.
    public func record(_ metrics: AttemptMetrics) {
        body(metrics)
    }
}
