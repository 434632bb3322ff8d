import Foundation
import NetworkingHTTP
import NetworkingCore

extension RetrySettings {
    /// What to do after a failed attempt.
    public enum Decision: Sendable, Hashable, CustomStringConvertible {
        /// Send the request again after waiting `after`.
        case retry(after: Duration)
        /// Give up and report the failure; `reason` says why, for logs and tests.
        case doNotRetry(reason: String)

        /// `retry after 0.25 s` or `do not retry: <reason>`.
        public var description: String {
            switch self {
            case .retry(let delay): "retry after \(RetrySettings.format(delay))"
            case .doNotRetry(let reason): "do not retry: \(reason)"
            }
        }
    }

    /// How an attempt failed.
    package enum Outcome: Sendable {
        /// The server answered with an unacceptable `status`, with its `Retry-After` header value if any.
        case status(Int, retryAfter: String? = nil)
        /// The attempt threw `error`. A `NetworkError` of kind `NetworkError/Kind/unacceptableStatus(_:)` is
        /// read as ``status(_:retryAfter:)`` with the `Retry-After` header of its response.
        case failure(any Error)
    }

    /// Decides whether to retry after a failed attempt, and how long to wait first. A pure function: the same
    /// inputs (and random number) always give the same decision.
    ///
    /// The checks, in order: the failure must be one another attempt can fix (statuses and transport errors in the
    /// policy's sets; never cancellation, a call deadline, or an invalid request, encoding, decoding or behavior
    /// error); unless the failure proves nothing was sent, the method must be retryable or the request must carry
    /// the idempotency key header; the body must be replayable; an attempt must be left; and the wait must end
    /// within ``timeBudget``. The wait is the `Retry-After` delay when a retryable status carries a valid one,
    /// otherwise `random() * backoffBound(afterAttempt: attempt)`. A `Retry-After` longer than
    /// ``maximumRetryAfter`` is not waited for at all: the decision is not to retry, so the caller gets the server's
    /// answer at once.
    ///
    /// - Parameters:
    ///   - method: The request's method.
    ///   - requestHeaders: The request's headers, searched for ``idempotencyKeyHeader``.
    ///   - bodyIsReplayable: `false` when the body is a stream that was consumed by the attempt.
    ///   - outcome: How the attempt failed.
    ///   - attempt: The number of the attempt that failed, from 1.
    ///   - elapsed: The time since the first attempt started.
    ///   - now: The current date, for `Retry-After` dates.
    ///   - random: A number in `0..<1` for the jitter; values outside are clamped.
    /// - Returns: ``Decision/retry(after:)`` or ``Decision/doNotRetry(reason:)``.
    package func decision(
        method: HTTPMethod,
        requestHeaders: HTTPFields = HTTPFields(),
        bodyIsReplayable: Bool = true,
        outcome: Outcome,
        attempt: Int,
        elapsed: Duration = .zero,
        now: Date,
        random: () -> Double
    ) -> Decision {
        let keyed = hasIdempotencyKey(requestHeaders)
        let eligible = retryableMethods.contains(method) || keyed
        let notEligible =
            "\(method) is not idempotent and has no \(idempotencyKeyHeader ?? "idempotency key") header: "
            + "the server may already have acted on it"
        let retryAfter: String?
        switch classify(outcome) {
        case .never(let reason):
            return .doNotRetry(reason: reason)
        case .status(let status, let header):
            guard retryableStatusCodes.contains(status) else {
                return .doNotRetry(reason: "status \(status) is not retryable")
            }
            guard eligible else { return .doNotRetry(reason: notEligible) }
            retryAfter = header
        case .transport(let code, let nothingSent):
            guard retryableTransportErrors.contains(code) else {
                return .doNotRetry(reason: "transport(\(code.rawValue)) is not retryable")
            }
            guard eligible || nothingSent else { return .doNotRetry(reason: notEligible) }
            retryAfter = nil
        }
        guard bodyIsReplayable else {
            return .doNotRetry(reason: "the body is a stream that cannot be sent again")
        }
        guard attempt < maximumAttempts else {
            return .doNotRetry(reason: "no attempts left (\(attempt) of \(maximumAttempts) made)")
        }
        let delay: Duration
        if let retryAfter, let asked = RetryAfter(retryAfter, now: now) {
            // A server asking for longer than the policy will ever wait gets its answer now: waiting less would
            // only ask again too early, and waiting that long would hold the caller for minutes.
            let wait = asked.delay(from: now)
            guard wait <= max(maximumRetryAfter, .zero) else {
                return .doNotRetry(
                    reason: "the server asked to wait \(Self.format(wait)) (Retry-After), longer than the policy's "
                        + "maximumRetryAfter of \(Self.format(maximumRetryAfter))")
            }
            delay = wait
        } else {
            let unit = random()
            let jitter = unit.isNaN ? 0 : min(max(unit, 0), 1)
            delay = .seconds(backoffBound(afterAttempt: attempt).seconds * jitter)
        }
        guard elapsed + delay <= timeBudget else {
            return .doNotRetry(
                reason: "waiting \(Self.format(delay)) after \(Self.format(elapsed)) would exceed the time budget of "
                    + Self.format(timeBudget))
        }
        return .retry(after: delay)
    }

    /// Decides for a failed request: reads its method, headers and body kind, and the error.
    ///
    /// When the error is a `NetworkError` carrying the request as the transport received it (`NetworkError/sentRequest`),
    /// that request is judged rather than `request`: behaviors inside the retry may have added headers, such as an
    /// `Idempotency-Key` from a per-request ``IdempotencyKeyBehavior``.
    ///
    /// - Parameters:
    ///   - request: The request that failed.
    ///   - error: What the attempt threw.
    ///   - attempt: The number of the attempt that failed, from 1.
    ///   - elapsed: The time since the first attempt started.
    ///   - now: The current date, for `Retry-After` dates.
    ///   - random: A number in `0..<1` for the jitter.
    /// - Returns: The decision of `decision(method:requestHeaders:bodyIsReplayable:outcome:attempt:elapsed:now:random:)`.
    package func decision(
        for request: HTTPRequest,
        error: any Error,
        attempt: Int,
        elapsed: Duration,
        now: Date,
        random: () -> Double
    ) -> Decision {
        let sent = (error as? NetworkError)?.sentRequest ?? request
        return decision(
            method: sent.method, requestHeaders: sent.headerFields, bodyIsReplayable: sent.body.isReplayable,
            outcome: .failure(error), attempt: attempt, elapsed: elapsed, now: now, random: random)
    }

    /// What kind of failure an outcome is, as far as retrying goes.
    private enum Failure {
        case status(Int, retryAfter: String?)
        case transport(TransportError.Code, nothingSent: Bool)
        case never(String)
    }

    /// Reads the failure as `FailureClassification` does (the one classifier every behavior shares); the policy's
    /// sets then decide among the statuses and transport failures.
    private func classify(_ outcome: Outcome) -> Failure {
        let error: any Error
        switch outcome {
        case .status(let status, let retryAfter): return .status(status, retryAfter: retryAfter)
        case .failure(let failure): error = failure
        }
        let failure = FailureClassification(error)
        switch failure.kind {
        case .cancelled:
            return .never("the call was cancelled")
        case .timedOut(.call):
            return .never("the call's deadline has passed")
        case .timedOut(.attempt):
            // The client's own per-attempt limit: treated like the transport's timer firing.
            return .transport(.timedOut, nothingSent: false)
        case .rejected:
            return .never("a behavior refused the call by policy (\(failure)); another attempt would be refused too")
        case .transient, .permanent:
            if let status = failure.status { return .status(status, retryAfter: failure.retryAfter) }
            if let code = Self.transportCode(of: error) {
                return .transport(code, nothingSent: !failure.requestMayHaveBeenSent)
            }
            if let error = error as? NetworkError {
                return .never("\(error.kind) would fail the same way again")
            }
            return .never("\(type(of: error)) is not a failure another attempt can fix")
        }
    }

    private static func transportCode(of error: any Error) -> TransportError.Code? {
        if let error = error as? TransportError { return error.code }
        if let error = error as? NetworkError, case .transport(let code) = error.kind { return code }
        return nil
    }

    private func hasIdempotencyKey(_ headers: HTTPFields) -> Bool {
        guard let name = idempotencyKeyHeader, let value = headers[name] else { return false }
        return !FieldSyntax.trimmed(value).isEmpty
    }

    /// A duration as seconds with at most two decimals, such as `0.25 s` or `30.0 s`.
    static func format(_ duration: Duration) -> String {
        "\((duration.seconds * 100).rounded() / 100) s"
    }
}
