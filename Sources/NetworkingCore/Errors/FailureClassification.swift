import NetworkingHTTP

/// What a failure says about trying again: the one answer that retry, the circuit breaker, hedging, metrics and
/// logging all read, so they never disagree.
///
/// ```swift
/// // Fragment: the decision a retry makes, in words; the body of the `if` is yours.
/// let failure = FailureClassification(error)
/// if failure.isWorthAnotherAttempt && (failure.requestMayHaveBeenSent == false || method.isIdempotent) { ... }
/// ```
///
/// | Failure | Kind |
/// |---|---|
/// | `CancellationError` | ``Kind/cancelled`` |
/// | `unacceptableStatus` 408, 429, 500, 502, 503, 504 (``transientStatusCodes``) | ``Kind/transient`` |
/// | any other `unacceptableStatus` (a 404, a 422, a 501) | ``Kind/permanent`` |
/// | `transport`: `cannotConnect`, `cannotFindHost`, `notConnected` (nothing was sent), `timedOut`, `connectionLost`, `badServerResponse` | ``Kind/transient`` |
/// | `transport`: `secureConnectionFailed`, `tooManyRedirects`, `redirectRefused`, `responseTooLarge`, `other` | ``Kind/permanent`` |
/// | `timedOut(.attempt)`, `timedOut(.call)` | ``Kind/timedOut(_:)`` with the scope |
/// | a behavior's error that is a ``PolicyRejection`` (an open circuit, a rate limit, a full queue), or an `unacceptableStatus` a behavior answered itself with one as its `underlyingError` (the HTTP cache's `504` for `only-if-cached`) | ``Kind/rejected`` |
/// | `invalidRequest`, `encoding`, `decoding`, `fileSystem`, any other behavior's error, any other error | ``Kind/permanent`` |
///
/// A `timedOut(.attempt)` is worth another attempt (``isWorthAnotherAttempt``); a `timedOut(.call)` never is.
public struct FailureClassification: Sendable, Hashable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Kind: Sendable, Hashable {
        /// Another attempt may succeed: the server was unavailable, overloaded or slow, or the connection broke.
        case transient
        /// Another attempt would fail the same way: the request, the answer, TLS, or a behavior's own error.
        case permanent
        /// The caller cancelled.
        case cancelled
        /// A time limit of the client ran out: one attempt's, or the whole call's.
        case timedOut(NetworkError.TimeoutScope)
        /// A behavior refused the call by policy, with nothing sent: an open circuit, a rate limit, a full queue.
        case rejected
    }

    /// The statuses that are transient: 408 Request Timeout, 429 Too Many Requests, 500 Internal Server Error,
    /// 502 Bad Gateway, 503 Service Unavailable, 504 Gateway Timeout (the set urllib3, Alamofire and OkHttp agree
    /// on; a 501 or 505 is the server saying it never will).
    public static let transientStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504]

    /// The kind of failure.
    public let kind: Kind
    /// `false` only when the failure proves the request never reached the server (a refused connection, an unknown
    /// host, no network, a refusal by policy): then even a `POST` may be sent again.
    public let requestMayHaveBeenSent: Bool
    /// The status of the response that failed the call, when there was one.
    public let status: Int?
    /// The `Retry-After` value of a response that failed the call, when it had one.
    public let retryAfter: String?

    /// Classifies `error`.
    ///
    /// - Parameter error: What a call, an attempt or a transport threw.
    public init(_ error: any Error) {
        var status: Int?
        var retryAfter: String?
        var sent = true
        let kind: Kind
        switch error {
        case is CancellationError:
            kind = .cancelled
        case let error as TransportError:
            (kind, sent) = Self.classify(error.code)
        case let error as NetworkError:
            switch error.kind {
            case .unacceptableStatus(let code):
                status = code
                retryAfter = error.response?.headerFields[.retryAfter]
                if error.underlyingError is any PolicyRejection {
                    // A status a behavior answered itself, nothing sent (a cache's 504 for only-if-cached).
                    kind = .rejected
                    sent = false
                } else {
                    kind = Self.transientStatusCodes.contains(code) ? .transient : .permanent
                }
            case .transport(let code):
                (kind, sent) = Self.classify(error.transportError?.code ?? code)
            case .timedOut(let scope):
                kind = .timedOut(scope)
            case .behavior:
                kind = error.underlyingError is any PolicyRejection ? .rejected : .permanent
                sent = !(error.underlyingError is any PolicyRejection)
            case .invalidRequest, .encoding:
                kind = .permanent
                sent = false
            case .decoding, .fileSystem:
                kind = .permanent
            }
        case is any PolicyRejection:
            kind = .rejected
            sent = false
        default:
            kind = .permanent
        }
        self.kind = kind
        self.requestMayHaveBeenSent = sent
        self.status = status
        self.retryAfter = retryAfter
    }

    private static func classify(_ code: TransportError.Code) -> (Kind, sent: Bool) {
        switch code {
        case .cannotConnect, .cannotFindHost, .notConnected: (.transient, false)
        case .timedOut, .connectionLost, .badServerResponse: (.transient, true)
        case .secureConnectionFailed, .tooManyRedirects, .redirectRefused, .responseTooLarge, .other: (.permanent, true)
        }
    }

    /// Whether another attempt may succeed: ``Kind/transient`` or an attempt's time limit.
    public var isWorthAnotherAttempt: Bool {
        switch kind {
        case .transient, .timedOut(.attempt): true
        case .permanent, .cancelled, .timedOut(.call), .rejected: false
        }
    }

    /// `transient`, `permanent`, `cancelled`, `timedOut(attempt)`, `rejected`, with the status when there was one.
    public var description: String {
        let name =
            switch kind {
            case .transient: "transient"
            case .permanent: "permanent"
            case .cancelled: "cancelled"
            case .timedOut(let scope): "timedOut(\(scope.rawValue))"
            case .rejected: "rejected"
            }
        return status.map { "\(name) (\($0))" } ?? name
    }
}

/// An error by which a behavior refuses a call by policy, before anything is sent: an open circuit, a rate limit, a
/// full queue. ``FailureClassification`` reads it as ``FailureClassification/Kind/rejected``.
public protocol PolicyRejection: Error {}
