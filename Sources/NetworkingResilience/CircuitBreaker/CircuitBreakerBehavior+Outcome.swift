import Foundation
import NetworkingHTTP
import NetworkingCore

extension CircuitBreakerBehavior {
    /// What a failed call says about its host, read from `FailureClassification` (the classifier every behavior
    /// shares).
    ///
    /// - A failure: `FailureClassification/Kind/transient` (408, 429, 500, 502, 503, 504; a connection refused,
    ///   lost or timed out by the transport; a broken answer) and the attempt's time limit (`timedOut(.attempt)`). A
    ///   `Retry-After` on a 429 or 503 is passed on, to lengthen the break.
    /// - A success: `FailureClassification/Kind/permanent` with a response (a 404 or 422 is the request's fault,
    ///   and proves the server answers; a 501 says the server never will).
    /// - Ignored, counting neither way: a permanent failure without a response (TLS, the client's own refusals such
    ///   as too many redirects or a body over the limit, an invalid request, decoding, a disk failure, another
    ///   behavior's error); cancellation; a refusal by policy; the whole call's deadline (`timedOut(.call)`, which
    ///   back-off may have used up).
    ///
    /// - Parameters:
    ///   - error: What the rest of the chain threw.
    ///   - now: The current date, for `Retry-After` dates.
    /// - Returns: The outcome to record.
    public static func outcome(of error: any Error, now: Date) -> CircuitBreakerState.Outcome {
        let failure = FailureClassification(error)
        switch failure.kind {
        case .transient, .timedOut(.attempt):
            let header = failure.status == 503 || failure.status == 429 ? failure.retryAfter : nil
            return .failure(retryAfter: header.flatMap { RetryAfter($0, now: now)?.delay(from: now) })
        case .permanent:
            return failure.status == nil ? .ignored : .success
        case .cancelled, .rejected, .timedOut(.call):
            return .ignored
        }
    }
}
