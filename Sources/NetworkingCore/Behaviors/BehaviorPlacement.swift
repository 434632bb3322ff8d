import NetworkingHTTP

/// Where a behavior runs in a call's chain. The chain orders behaviors by placement, not by the order they were
/// given in: a user cannot put a behavior where it would be unsafe.
///
/// Every behavior declares its placement (``RequestBehavior/placement``; a behavior of your own is
/// ``modification`` unless it says otherwise). The chain runs them outermost first in the order below; behaviors
/// of the same placement keep the order they were given in, client-wide before per-request.
///
/// | Placement | Stage | Built-ins there | Why there |
/// |---|---|---|---|
/// | ``metrics`` | call | metrics | The call's clock starts first, so waits before an attempt count in it. |
/// | ``observation`` | call | activity counter, background task, logging | One call is one event, however many attempts. |
/// | ``admission`` | call | concurrency limit, rate limit | A call takes one slot or token for all its attempts. |
/// | ``callSetup`` | call | idempotency key | What every attempt shares is set before the first. |
/// | ``retry`` | call | retry | Everything inside runs again on each attempt. |
/// | ``hedging`` | call | hedging | Inside retry: a hedged attempt can still be retried. |
/// | ``circuitBreaker`` | attempt | circuit breaker | Each attempt is an outcome; an open circuit fails fast. |
/// | ``credentials`` | attempt | authorization, token refresh | Each attempt carries the current credential. |
/// | ``modification`` | attempt | headers, request modifiers, your own behaviors | The request's final headers. |
/// | ``cookies`` | attempt | cookies | Sees the final headers; follows redirects itself. |
/// | ``outgoing`` | attempt | logging of each attempt, a signing modifier | Sees the request exactly as it leaves. |
/// | ``cache`` | wire | HTTP cache | Decides on the request as sent: its credentials are part of its key. |
/// | ``coalescing`` | wire | coalescing | Decides on the request as sent: a credential always splits calls. |
///
/// The two **wire** placements are innermost on purpose: a behavior that answers a call from a stored or shared
/// response decides on the request as it is sent, after every behavior that adds a credential, whoever added it
/// (client-wide, per request, a modifier, a token refresh, cookies). One user's answer can therefore never reach
/// another user through them, whatever order the behaviors were given in.
public struct BehaviorPlacement: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The three stages of a call.
    public enum Stage: Int, Sendable, Hashable, Comparable {
        /// Once per call, outside retries.
        case call
        /// Once per attempt, inside retries.
        case attempt
        /// Next to the wire: sees the request exactly as it is sent.
        case wire

        /// Outer stages sort first.
        public static func < (lhs: Stage, rhs: Stage) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The placement's name, such as `credentials`.
    public let name: String
    /// The stage the placement belongs to.
    public let stage: Stage
    /// The position in the chain; lower runs outer.
    package let rank: Int

    private init(_ name: String, _ stage: Stage, _ rank: Int) {
        self.name = name
        self.stage = stage
        self.rank = rank
    }

    /// Metrics: outermost, so the call's clock includes every wait.
    public static let metrics = BehaviorPlacement("metrics", .call, 100)
    /// Observers of the whole call: activity counter, background task, logging.
    public static let observation = BehaviorPlacement("observation", .call, 200)
    /// Admission of the call: concurrency limit, rate limit.
    public static let admission = BehaviorPlacement("admission", .call, 300)
    /// What every attempt of the call shares: the idempotency key.
    public static let callSetup = BehaviorPlacement("callSetup", .call, 400)
    /// Retry.
    public static let retry = BehaviorPlacement("retry", .call, 500)
    /// Hedging.
    public static let hedging = BehaviorPlacement("hedging", .call, 600)
    /// The circuit breaker: each attempt is an outcome.
    public static let circuitBreaker = BehaviorPlacement("circuitBreaker", .attempt, 700)
    /// Credentials: authorization, token refresh.
    public static let credentials = BehaviorPlacement("credentials", .attempt, 800)
    /// Changes to the request: headers, request modifiers, and behaviors that do not say otherwise.
    public static let modification = BehaviorPlacement("modification", .attempt, 900)
    /// Cookies.
    public static let cookies = BehaviorPlacement("cookies", .attempt, 1000)
    /// The request as it leaves: a log of each attempt, a signature over the final request.
    public static let outgoing = BehaviorPlacement("outgoing", .attempt, 1100)
    /// The HTTP cache.
    public static let cache = BehaviorPlacement("cache", .wire, 1200)
    /// Coalescing.
    public static let coalescing = BehaviorPlacement("coalescing", .wire, 1300)

    /// Every placement, outermost first.
    public static let all: [BehaviorPlacement] = [
        .metrics, .observation, .admission, .callSetup, .retry, .hedging, .circuitBreaker, .credentials,
        .modification, .cookies, .outgoing, .cache, .coalescing,
    ]

    /// Whether a chain holds at most one behavior of this placement: retry, hedging, circuit breaker, cache and
    /// coalescing, whose effects would multiply or hide each other. The client refuses a second one in its
    /// client-wide behavior (``BehaviorConflictError``), and one given per request takes the client-wide one's place.
    public var isExclusive: Bool { Self.exclusive.contains(rank) }

    private static let exclusive: Set<Int> = [
        retry.rank, hedging.rank, circuitBreaker.rank, cache.rank, coalescing.rank,
    ]

    /// The placement's name.
    public var description: String { name }

    /// Outer placements sort first.
    public static func < (lhs: BehaviorPlacement, rhs: BehaviorPlacement) -> Bool { lhs.rank < rhs.rank }

    /// Placements are equal when they are the same position.
    public static func == (lhs: BehaviorPlacement, rhs: BehaviorPlacement) -> Bool { lhs.rank == rhs.rank }

    /// Hashes the position.
    public func hash(into hasher: inout Hasher) { hasher.combine(rank) }
}
