import Foundation

/// Measures every attempt of a call — time in the chain, time to the response head, total time, bytes each way,
/// status or error, attempt number, connection reuse where known — and hands each to a ``MetricsSink``.
///
/// ```swift
/// let behavior = CombinedBehavior([
///     .metrics { metrics in print(metrics) },
///     .logging(), .retry(),
/// ])
/// ```
/// - **Put it outermost**, outside retry: the call's clock starts when it reaches this behavior, so
///   ``AttemptMetrics/chainWait`` of a second attempt includes the back-off before it, and attempts are numbered
///   within the call. Placed inside retry, each attempt looks like a call of its own (always attempt 1).
/// - **Measured in the client and the transport**, the same on every platform. The attempt starts when it
///   leaves the last behavior for the client's final checks and the transport; an attempt refused before any I/O (an invalid request) is
///   still delivered, with `failed(invalidRequest)`. The URL session transport notes when the response head
///   arrives and the bytes on each task; a transport that notes nothing gets the time its `send` returned as the
///   head time and the body sizes as byte counts. Connection reuse is known on Apple platforms only.
/// - **One record per attempt, exactly once**, on success, unacceptable status, failure and cancellation alike.
///
/// Defaults: the clock is the call's (``RequestContext/clock``). State kept: none between calls.
public struct MetricsBehavior: RequestBehavior {
    /// ``BehaviorPlacement/metrics``: outermost, so the call's clock includes every wait before an attempt.
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
        var request = request
        request.callMeasurement = CallMeasurement(context: context, clock: clock ?? context.clock, sink: sink)
        return try await next(request)
    }
}

extension RequestBehavior where Self == MetricsBehavior {
    /// Measures every attempt and hands the measurements to `record`.
    ///
    /// - Parameters:
    ///   - clock: The clock to time with; `nil` (the default) uses the call's clock.
    ///   - record: Receives each attempt's ``AttemptMetrics``; keep it quick.
    /// - Returns: The behavior.
    public static func metrics(
        clock: (any NetworkClock)? = nil, _ record: @escaping @Sendable (AttemptMetrics) -> Void
    ) -> MetricsBehavior {
        MetricsBehavior(sink: MetricsSink(record), clock: clock)
    }
}
