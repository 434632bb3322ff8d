import Networking

/// Keeps every `AttemptMetrics` a metrics behavior delivers, in order.
package final class MetricsCollector: Sendable {
    private let box = LockedBox<[AttemptMetrics]>([])
    package init() {}
    package var all: [AttemptMetrics] { box.current }
    package func record(_ metrics: AttemptMetrics) { box.withLock { $0.append(metrics) } }
}
