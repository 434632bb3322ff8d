import NetworkingHTTP

/// Where the observers of the current call and attempt live: task-local values, so they follow the call through
/// the chain (and into the tasks coalescing and hedging start) without riding on the request.
public enum TransferObservation {
    /// The observers installed on the current call by behaviors outside this point, combined.
    @TaskLocal static var call: (any TransferObserver)?

    /// The observer of the attempt the current task is sending, if any: a transport reads it once, at the start
    /// of ``HTTPTransport/send(_:)``, and reports bytes sent and its own metrics to it from any thread.
    @TaskLocal public static var attempt: (any AttemptObserver)?

    /// Runs `operation` with `observer` watching every attempt it makes, beside any observer already installed.
    ///
    /// - Parameters:
    ///   - observer: Asked for an ``AttemptObserver`` at the start of each attempt.
    ///   - operation: The rest of the call, usually `next(request)`.
    /// - Returns: What `operation` returned.
    public static func observe<T: Sendable>(
        with observer: any TransferObserver, _ operation: () async throws -> T
    ) async rethrows -> T {
        let combined: any TransferObserver = call.map { Both(first: $0, second: observer) } ?? observer
        return try await $call.withValue(combined, operation: operation)
    }

    /// The attempt observer for `request`, from every observer installed on the current call; `nil` when none is.
    package static func startAttempt(_ request: HTTPRequest) -> (any AttemptObserver)? {
        call?.attemptStarted(request)
    }

    /// Two observers as one.
    private struct Both: TransferObserver {
        let first: any TransferObserver
        let second: any TransferObserver

        func attemptStarted(_ request: HTTPRequest) -> (any AttemptObserver)? {
            switch (first.attemptStarted(request), second.attemptStarted(request)) {
            case (let a?, let b?): BothAttempts(first: a, second: b)
            case (let a?, nil): a
            case (nil, let b?): b
            case (nil, nil): nil
            }
        }
    }

    /// Two attempt observers as one.
    private struct BothAttempts: AttemptObserver {
        let first: any AttemptObserver
        let second: any AttemptObserver

        func responseHeadReceived(_ response: HTTPResponse) {
            first.responseHeadReceived(response)
            second.responseHeadReceived(response)
        }
        func bytesSent(_ total: Int64, of expected: Int64?) {
            first.bytesSent(total, of: expected)
            second.bytesSent(total, of: expected)
        }
        func transportReported(_ metrics: TransportMetrics) {
            first.transportReported(metrics)
            second.transportReported(metrics)
        }
        func attemptEnded(_ ending: AttemptEnding) {
            first.attemptEnded(ending)
            second.attemptEnded(ending)
        }
    }
}
