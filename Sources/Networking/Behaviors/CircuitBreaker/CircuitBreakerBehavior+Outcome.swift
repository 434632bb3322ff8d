import Foundation

extension CircuitBreakerBehavior {
    /// What a failed call says about its host, the rule the breaker counts by.
    ///
    /// - A failure: a status of 500 or above, 408 (the server timed out waiting) or 429 (overloaded); a
    ///   `Retry-After` on a 429 or 503 is passed on, to lengthen the break; a transport failure other than those
    ///   below; the attempt's time limit (`timedOut(.attempt)`).
    /// - Ignored, counting neither way: `CancellationError`; another behavior's error (`behavior(_:)`); the whole
    ///   call's deadline (`timedOut(.call)`, which back-off may have used up); a request refused before any I/O
    ///   (`invalidRequest`, `encoding`); `decoding`; a local disk failure (`fileSystem`); the client's own refusals `tooManyRedirects`,
    ///   `redirectRefused`, `responseTooLarge`; any error that is neither a ``NetworkError`` nor a
    ///   ``TransportError``.
    /// - A success: any other status (a 404 or 422 is the request's fault, and proves the server answers).
    ///
    /// - Parameters:
    ///   - error: What the rest of the chain threw.
    ///   - now: The current date, for `Retry-After` dates.
    /// - Returns: The outcome to record.
    public static func outcome(of error: any Error, now: Date) -> CircuitBreakerState.Outcome {
        switch error {
        case let error as NetworkError:
            switch error.kind {
            case .unacceptableStatus(let status):
                guard status >= 500 || status == 408 || status == 429 else { return .success }
                let header = status == 503 || status == 429 ? error.response?.headerFields[.retryAfter] : nil
                return .failure(retryAfter: header.flatMap { RetryAfter($0, now: now)?.delay(from: now) })
            case .transport(let code):
                return outcome(of: code)
            case .timedOut(.attempt):
                return .failure(retryAfter: nil)
            case .timedOut(.call), .behavior, .invalidRequest, .encoding, .decoding, .fileSystem:
                return .ignored
            }
        case let error as TransportError:
            return outcome(of: error.code)
        default:
            return .ignored
        }
    }

    private static func outcome(of code: TransportError.Code) -> CircuitBreakerState.Outcome {
        switch code {
        case .tooManyRedirects, .redirectRefused, .responseTooLarge: .ignored
        default: .failure(retryAfter: nil)
        }
    }
}
