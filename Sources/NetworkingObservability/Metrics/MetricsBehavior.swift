import Foundation
import NetworkingHTTP
import NetworkingCore

/// Measures every attempt of a call — time in the chain, time to the response head, total time, bytes each way,
/// status or error, attempt number, connection reuse where known — and hands each to a ``MetricsSink``.
///
/// ```swift
/// let behavior = CombinedBehavior([
///     .metrics { metrics in print(metrics) },
///     .logging(), .retry(),
/// ])
/// ```
/// - **Always outermost** (`BehaviorPlacement/metrics`): the call's clock starts when it reaches this behavior,
///   so ``AttemptMetrics/chainWait`` of a second attempt includes the back-off before it, and attempts are numbered
///   within the call.
/// - **Measured by the client, completed by the transport**, through `TransferObservation`: the client notes
///   when the attempt leaves the last behavior, when the head arrives and when the body ends, the same on every
///   transport; an attempt refused before any I/O (an invalid request) is still delivered, with
///   `failed(invalidRequest)`. A transport adds what it knows (``AttemptMetrics/transport``: name lookup, connect,
///   TLS and first-byte times, connection reuse, protocol, bytes on the wire): the libcurl transport all of it,
///   the URL session transport what Foundation reports on the platform.
/// - **One record per attempt, exactly once**, on success, unacceptable status, failure and cancellation alike.
///
/// Defaults: the clock is the call's (`RequestContext/clock`). State kept: none between calls.
public struct MetricsBehavior: RequestBehavior {
    /// `BehaviorPlacement/metrics`: outermost, so the call's clock includes every wait before an attempt.
    public var placement: BehaviorPlacement { .metrics }

    private let sink: MetricsSink
    private let clock: (any NetworkClock)?

    /// Creates the behavior.
    ///
    /// - Parameters:
    ///   - sink: Receives each attempt's measurements.
    ///   - clock: The clock to time with; `nil` (the default) uses the call's clock.
    public init(sink: MetricsSink, clock: (any NetworkClock)? = nil) {
        self.sink = sink
        self.clock = clock
    }

    /// Starts the call's measurement and passes the request on with it.
    ///
    /// - Parameters:
    ///   - request: The request, passed on with the measurement attached.
    ///   - context: The call's context.
    ///   - next: The rest of the chain.
    /// - Returns: What `next` returned.
    /// - Throws: What `next` threw, unchanged.
    public func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        let measurement = CallMeasurement(context: context, clock: clock ?? context.clock, sink: sink)
        return try await TransferObservation.observe(with: measurement) { try await next(request) }
    }
}

extension RequestBehavior where Self == MetricsBehavior {
    /// Measures every attempt and hands the measurements to `record`.
    ///
    /// - Parameters:
    ///   - clock: The clock to time with; `nil` (the default) uses the call's clock.
    ///   - record: Receives each attempt's `AttemptMetrics`; keep it quick.
    /// - Returns: The behavior.
    public static func metrics(
        clock: (any NetworkClock)? = nil, _ record: @escaping @Sendable (AttemptMetrics) -> Void
    ) -> MetricsBehavior {
        MetricsBehavior(sink: MetricsSink(record), clock: clock)
    }
}
