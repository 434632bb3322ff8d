import Foundation
import NetworkingHTTP
import NetworkingCore

/// The per-call record behind ``MetricsBehavior``: installed on the call as a `TransferObserver`, it numbers the
/// attempts in the order they reach the transport (hedged attempts too) and measures each with an
/// ``AttemptMeasurement``.
final class CallMeasurement: TransferObserver {
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

    /// Starts the next attempt's measurement.
    func attemptStarted(_ request: HTTPRequest) -> (any AttemptObserver)? {
        let number = attempts.withLock { count in
            count += 1
            return count
        }
        return AttemptMeasurement(call: self, number: number, request: request)
    }
}
