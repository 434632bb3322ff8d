import Foundation

/// The per-call and per-attempt records behind ``MetricsBehavior``. The behavior puts a ``CallMeasurement`` on the
/// request; the client's attempt starts an ``AttemptMeasurement`` from it and hands that to the transport on the
/// request, and the transport notes the response head and the bytes as they happen.
package final class CallMeasurement: Sendable {
    let requestName: String
    let callID: UUID
    let clock: any NetworkClock
    let start: Duration
    let sink: MetricsSink
    private let attempts = LockedBox(0)

    init(context: RequestContext, clock: any NetworkClock, sink: MetricsSink) {
        requestName = context.requestName
        callID = context.callID
        self.clock = clock
        self.start = clock.now()
        self.sink = sink
    }

    /// Starts the next attempt: numbered in the order attempts reach the transport (hedged attempts too).
    func beginAttempt(_ request: HTTPRequest) -> AttemptMeasurement {
        let number = attempts.withLock { count in
            count += 1
            return count
        }
        return AttemptMeasurement(call: self, number: number, request: request)
    }
}
