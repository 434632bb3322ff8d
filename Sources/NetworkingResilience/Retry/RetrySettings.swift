import Foundation
import NetworkingHTTP
import NetworkingCore

/// When and how long to wait before sending a failed request again: the rules ``RetryBehavior`` follows.
///
/// The settings are a plain value (`RetryPolicy` before 1.0). Their decision is a pure function of the settings
/// and what happened, so every rule can be tested without a client or a clock.
///
/// The defaults follow RFC 9110 and what other clients learned the hard way:
/// - only requests that are safe to send twice are retried: an idempotent method, a request carrying an
///   `Idempotency-Key` header, or any request whose failure proves it never left the machine;
/// - only failures another attempt can fix are retried: overload and gateway statuses, and broken connections;
/// - waits grow exponentially with full jitter and are capped; `Retry-After` is honoured up to a limit, beyond
///   which the server's answer is returned at once; no wait ends past a time budget.
///
/// ```swift
/// var settings = RetrySettings.default
/// settings.maximumAttempts = 5
/// let client = NetworkClient(baseURL: url, behavior: .retry(settings))
/// ```
public struct RetrySettings: Sendable, Hashable {
    /// How many attempts a call may make in all, the first one included. `1` turns retrying off.
    ///
    /// Default: 3. Two retries ride out a brief outage or a deploy without letting one call multiply the load on a
    /// struggling server more than threefold.
    public var maximumAttempts: Int
    /// Methods that may be sent again after the server may have seen them.
    ///
    /// Default: `GET`, `HEAD`, `OPTIONS`, `PUT`, `DELETE`, `TRACE`, the methods RFC 9110 §9.2.2 defines as
    /// idempotent, so a duplicate that reaches the server has the same effect as one. `POST` and `PATCH` are left
    /// out: a lost answer does not mean a lost request, and sending them twice could charge a card twice.
    public var retryableMethods: Set<HTTPMethod>
    /// A request header whose presence (with a non-empty value) makes any method retryable, because the server
    /// promises to act on one key once. `nil` turns the opt-in off.
    ///
    /// Default: `HTTPField/Name/idempotencyKey` (`Idempotency-Key`), the header payment and other APIs use so a
    /// client can safely retry a `POST`: the server remembers the key and answers a repeat without acting again.
    public var idempotencyKeyHeader: HTTPField.Name?
    /// Statuses worth another attempt, for retryable methods.
    ///
    /// Default: `FailureClassification/transientStatusCodes`, the statuses every behavior reads as transient: 408 (the server gave up waiting for the request), 429 (too many requests: wait, usually as
    /// `Retry-After` says), 500 (often a passing fault), 502 and 504 (a gateway could not reach the application,
    /// as during a deploy), 503 (overloaded or in maintenance, often with `Retry-After`). Other 4xx statuses
    /// describe the request itself, and 501 and 505 the server's abilities: the same request would fail the same
    /// way.
    public var retryableStatusCodes: Set<Int>
    /// Transport failures worth another attempt. Those that prove nothing was sent
    /// (`TransportError/requestWasNotSent`) are retried for any method, the others for retryable methods only.
    /// `TransportError/Code/timedOut` in this set also enables retrying the client's per-attempt time limit,
    /// `NetworkError/TimeoutScope/attempt`.
    ///
    /// Default, chosen one by one:
    /// - `TransportError/Code/cannotConnect`, `TransportError/Code/cannotFindHost`,
    ///   `TransportError/Code/notConnected`: nothing was sent, so even a `POST` is safe to retry, and a refused
    ///   connection, a DNS hiccup or a network coming back are often gone a moment later;
    /// - `TransportError/Code/timedOut`, `TransportError/Code/connectionLost` (including a body cut short of its
    ///   `Content-Length`), `TransportError/Code/badServerResponse`: often a stale pooled connection or a server
    ///   restarting, but the server may have acted on the request, so only retryable methods are sent again.
    ///
    /// Left out on purpose: `TransportError/Code/tooManyRedirects` and `TransportError/Code/redirectRefused`
    /// (the server's configuration answers the same way every time), `TransportError/Code/responseTooLarge`
    /// (the body will still be too large), `TransportError/Code/secureConnectionFailed` (a certificate or TLS
    /// failure is never transient and retrying it only hides an attack or a misconfiguration), and
    /// `TransportError/Code/other` (what could not be classified, such as a malformed header: guessing could
    /// retry something that will fail the same way).
    public var retryableTransportErrors: Set<TransportError.Code>
    /// The upper bound of the first wait; later bounds grow by ``delayMultiplier``.
    ///
    /// Default: 0.5 seconds. The first retry comes while a user is still waiting, yet late enough for a dropped
    /// connection to be replaced. With full jitter the actual first wait is anywhere between 0 and 0.5 seconds.
    public var baseDelay: Duration
    /// How much the bound of the wait grows after each failed attempt.
    ///
    /// Default: 2. Each bound doubles (0.5 s, 1 s, 2 s, …), the usual exponential back-off, so clients that failed
    /// together spread out quickly.
    public var delayMultiplier: Double
    /// The largest bound a back-off wait can have, however many attempts failed.
    ///
    /// Default: 30 seconds, so a policy with many attempts still retries at a useful pace.
    public var maximumDelay: Duration
    /// The longest `Retry-After` wait the policy accepts. When a server asks for longer, the call is not retried:
    /// it fails at once with the server's answer.
    ///
    /// Default: 60 seconds. A server asking for a minute or less is waited for. A longer (or absurd, like `86400`
    /// or `999999999`) `Retry-After` is neither obeyed nor shortened: the call fails at once with the server's 429
    /// or 503, after one attempt, so the caller can decide (tell the user, schedule work for later). Asking again
    /// after a shortened wait would only meet the same refusal.
    public var maximumRetryAfter: Duration
    /// The time a call may spend from the start of its first attempt to the end of its last wait. A retry whose
    /// wait would end later is not made.
    ///
    /// Default: 120 seconds. Room for one full `Retry-After` wait and the back-off waits, and well inside the
    /// client's default whole-call deadline of 300 seconds, so the last attempt has time to finish and the caller
    /// gets its real error instead of a deadline.
    public var timeBudget: Duration

    /// The default of ``maximumAttempts``.
    package static let defaultMaximumAttempts = 3
    /// The default of ``retryableMethods``.
    package static let defaultRetryableMethods: Set<HTTPMethod> = [.get, .head, .options, .put, .delete, .trace]
    /// The default of ``retryableStatusCodes``.
    package static let defaultRetryableStatusCodes: Set<Int> = FailureClassification.transientStatusCodes
    /// The default of ``retryableTransportErrors``.
    package static let defaultRetryableTransportErrors: Set<TransportError.Code> = [
        .cannotConnect, .cannotFindHost, .notConnected, .timedOut, .connectionLost, .badServerResponse,
    ]
    /// The default of ``baseDelay``.
    package static let defaultBaseDelay: Duration = .milliseconds(500)
    /// The default of ``delayMultiplier``.
    package static let defaultDelayMultiplier: Double = 2
    /// The default of ``maximumDelay``.
    package static let defaultMaximumDelay: Duration = .seconds(30)
    /// The default of ``maximumRetryAfter``.
    package static let defaultMaximumRetryAfter: Duration = .seconds(60)
    /// The default of ``timeBudget``.
    package static let defaultTimeBudget: Duration = .seconds(120)

    /// The policy with every default, each explained on its property. Read it to build on the defaults:
    /// `RetrySettings.default.retryableStatusCodes.union([409])`.
    public static let `default` = RetrySettings()

    /// Creates a policy; each value defaults to the default documented on its property.
    ///
    /// - Parameters:
    ///   - maximumAttempts: Attempts in all, the first included.
    ///   - retryableMethods: Methods that may be sent again after the server may have seen them.
    ///   - idempotencyKeyHeader: A header that makes any method retryable; `nil` for none.
    ///   - retryableStatusCodes: Statuses worth another attempt.
    ///   - retryableTransportErrors: Transport failures worth another attempt.
    ///   - baseDelay: The bound of the first back-off wait.
    ///   - delayMultiplier: How much the bound grows per failed attempt.
    ///   - maximumDelay: The largest back-off bound.
    ///   - maximumRetryAfter: The longest `Retry-After` wait accepted.
    ///   - timeBudget: The time from the first attempt after which no wait may end.
    public init(
        maximumAttempts: Int = 3,
        retryableMethods: Set<HTTPMethod> = [.get, .head, .options, .put, .delete, .trace],
        idempotencyKeyHeader: HTTPField.Name? = .idempotencyKey,
        retryableStatusCodes: Set<Int> = FailureClassification.transientStatusCodes,
        retryableTransportErrors: Set<TransportError.Code> = [
            .cannotConnect, .cannotFindHost, .notConnected, .timedOut, .connectionLost, .badServerResponse,
        ],
        baseDelay: Duration = .milliseconds(500),
        delayMultiplier: Double = 2,
        maximumDelay: Duration = .seconds(30),
        maximumRetryAfter: Duration = .seconds(60),
        timeBudget: Duration = .seconds(120)
    ) {
        self.maximumAttempts = maximumAttempts
        self.retryableMethods = retryableMethods
        self.idempotencyKeyHeader = idempotencyKeyHeader
        self.retryableStatusCodes = retryableStatusCodes
        self.retryableTransportErrors = retryableTransportErrors
        self.baseDelay = baseDelay
        self.delayMultiplier = delayMultiplier
        self.maximumDelay = maximumDelay
        self.maximumRetryAfter = maximumRetryAfter
        self.timeBudget = timeBudget
    }

    /// The upper bound of the back-off wait after failed attempt `attempt` (1-based):
    /// `min(maximumDelay, baseDelay * delayMultiplier^(attempt - 1))`. The wait itself is a random point in
    /// `0 ... bound` (full jitter).
    ///
    /// - Parameter attempt: The number of the attempt that failed, from 1.
    /// - Returns: The bound, never negative and never above ``maximumDelay``.
    public func backoffBound(afterAttempt attempt: Int) -> Duration {
        let cap = max(maximumDelay, .zero)
        let grown = max(baseDelay, .zero).seconds * pow(delayMultiplier, Double(max(attempt, 1) - 1))
        if grown.isNaN || grown <= 0 { return .zero }
        return grown >= cap.seconds ? cap : .seconds(grown)
    }
}
