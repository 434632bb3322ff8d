import Foundation
import NetworkingHTTP
import NetworkingCore

/// Spaces calls to each host out with a token bucket, and pauses a host for every call when it answers `429 Too
/// Many Requests` with `Retry-After`.
///
/// ```swift
/// let client = NetworkClient(
///     baseURL: url,
///     behavior: CombinedBehavior([.rateLimit(), .retry(), .circuitBreaker()])
/// )
/// ```
/// One bucket per host and port by default (``BehaviorScope/host``), with the arithmetic of ``TokenBucket`` and the
/// settings of ``RateLimitSettings``. A call that finds no token waits on the injected clock; it fails at once,
/// without I/O, with ``RateLimitedError`` when its token is further away than ``RateLimitSettings/maximumWait``
/// or than its deadline, and its wait ends with `timedOut(.attempt)` or `timedOut(.call)` at the call's time
/// limits (`RequestContext/withTimeLimits(waitingFor:_:)`). A call cancelled while waiting throws
/// `CancellationError` and takes no token. Waiting callers are told to wait one refill apart in the order they
/// arrived, but a caller arriving just as a token comes back may take it first: the order is not strictly
/// first-come, first-served.
///
/// A `429` that reaches it with a `Retry-After` asking for a wait (up to ``RateLimitSettings/maximumPause``) empties
/// the host's bucket and stops its refill for that long: every call to the host waits or fails fast meanwhile, and
/// calls resume at the refill rate afterwards. It runs outside `RetryBehavior` (one token per call), so with a
/// retry in the chain that is a `429` the retry gave up on: its attempts used up, or a `Retry-After` longer than
/// `RetrySettings/maximumRetryAfter`. A `429` the retry waits out itself does not pause the host.
public struct RateLimitBehavior: RequestBehavior {
    /// `BehaviorPlacement/admission`: one token per call, whatever its retries.
    public var placement: BehaviorPlacement { .admission }

    /// The bucket's settings.
    public let settings: RateLimitSettings
    /// How calls are split into buckets.
    public let scope: BehaviorScope
    /// Where the buckets live.
    public let store: any RateLimitStore
    /// The clock of refills, waits and pauses.
    public let clock: (any NetworkClock)?

    /// Creates a rate limiter.
    ///
    /// - Parameters:
    ///   - settings: The bucket's settings; ``RateLimitSettings/default`` unless given.
    ///   - scope: How calls are split into buckets; one per host unless given.
    ///   - store: Where the buckets live; a new ``InMemoryRateLimitStore`` unless given.
    ///   - clock: The clock of refills, waits and pauses; the call's clock (the client's) unless given.
    public init(
        settings: RateLimitSettings = .default,
        scope: BehaviorScope = .host,
        store: any RateLimitStore = InMemoryRateLimitStore(),
        clock: (any NetworkClock)? = nil
    ) {
        self.settings = settings
        self.scope = scope
        self.store = store
        self.clock = clock
    }

    /// Takes a token for `request` (waiting for one if needed), sends it, and pauses the host on a `429` with
    /// `Retry-After`.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - context: The call's context: its time limits bound the wait.
    ///   - next: The rest of the chain, called at most once.
    /// - Returns: The response from `next`.
    /// - Throws: ``RateLimitedError`` without calling `next` when the token is too far away; `NetworkError` of kind
    ///   `timedOut` when a time limit ends the wait; `CancellationError`; otherwise what `next` threw.
    public func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        let clock = self.clock ?? context.clock
        let key = scope.key(for: request, context: context)
        let start = clock.now()
        if let wait = update(key, now: start, { $0.take(now: start) }) {
            try await context.withTimeLimits(waitingFor: "a rate-limit token for \(key)") { [self] in
                try await waitForToken(
                    key: key, firstWait: wait, start: start, deadline: context.deadline, clock: clock)
            }
        }
        do {
            return try await next(request)
        } catch let error as NetworkError where error.kind == .unacceptableStatus(429) {
            if let header = error.response?.headerFields[.retryAfter],
                let asked = RetryAfter(header, now: clock.date())?.delay(from: clock.date()), asked > .zero
            {
                let pause = min(asked, settings.maximumPause)
                let now = clock.now()
                update(key, now: now) { $0.pause(now: now, for: pause) }
            }
            throw error
        }
    }

    /// Sleeps until a token is taken, or throws when the wait would pass the maximum wait or the deadline.
    private func waitForToken(
        key: String, firstWait: Duration, start: Duration, deadline: CallDeadline?, clock: any NetworkClock
    ) async throws {
        var wait = firstWait
        while true {
            let allowed = min(settings.maximumWait - (clock.now() - start), deadline?.remaining() ?? .longestTimeLimit)
            guard wait <= allowed else { throw RateLimitedError(key: key, wait: wait, allowed: max(allowed, .zero)) }
            update(key, now: clock.now()) { $0.startWaiting() }
            do {
                try await clock.sleep(for: wait)
            } catch {
                update(key, now: clock.now()) { $0.stopWaiting() }
                throw error
            }
            let now = clock.now()
            guard
                let next = update(
                    key, now: now,
                    {
                        $0.stopWaiting()
                        return $0.take(now: now)
                    })
            else { return }
            wait = next
        }
    }

    /// Runs `body` on `key`'s bucket, made full at `now` if there is none: the reading `body` uses, so a new
    /// bucket never starts after the moment it is asked at (which would read as a pause).
    private func update<T>(_ key: String, now: Duration, _ body: (inout TokenBucket) -> T) -> T {
        store.update(key, initial: { TokenBucket(settings: settings, now: now) }, body)
    }
}

extension RequestBehavior where Self == RateLimitBehavior {
    /// A rate limiter with `settings`, one token bucket per host unless `scope` says otherwise.
    ///
    /// - Parameters:
    ///   - settings: The bucket's settings; `RateLimitSettings/default` unless given.
    ///   - scope: How calls are split into buckets; one per host unless given.
    ///   - store: Where the buckets live; a new `InMemoryRateLimitStore` unless given.
    ///   - clock: The clock of refills, waits and pauses; the call's clock (the client's) unless given.
    /// - Returns: The rate limiter.
    public static func rateLimit(
        _ settings: RateLimitSettings = .default,
        scope: BehaviorScope = .host,
        store: any RateLimitStore = InMemoryRateLimitStore(),
        clock: (any NetworkClock)? = nil
    ) -> RateLimitBehavior {
        RateLimitBehavior(settings: settings, scope: scope, store: store, clock: clock)
    }
}
