import Foundation
import NetworkingHTTP
import NetworkingCore

/// The rate limiter's arithmetic as a plain value: a bucket of tokens that refills at a steady rate, can be paused,
/// and tells a caller how long to wait. ``RateLimitBehavior`` keeps one per scope key in a ``RateLimitStore``.
///
/// - A call takes one token when there is one (``take(now:)`` returns `nil`); tokens never go below 0.
/// - Otherwise it is told to wait for the tokens it needs, counting the callers already waiting ahead of it
///   (``waiting``), so waiters wake one refill apart instead of all at once. A waiter that gives up takes nothing.
/// - ``pause(now:for:)`` (a `429` with `Retry-After`) empties the bucket and stops the refill until the pause
///   ends: afterwards calls resume at the refill rate, not in a burst.
public struct TokenBucket: Sendable, Hashable {
    /// The bucket's size.
    public let capacity: Int
    /// Tokens added per second.
    public let tokensPerSecond: Double
    /// The tokens available at ``updatedAt``, between 0 and ``capacity``; fractions are refills under way.
    public private(set) var tokens: Double
    /// The clock reading the tokens were counted at; after a pause, its end (refill starts there).
    public private(set) var updatedAt: Duration
    /// Callers waiting for a token, as registered with ``startWaiting()``.
    public private(set) var waiting = 0
    /// Tokens taken so far.
    public private(set) var granted = 0

    /// A full bucket at `now`.
    ///
    /// - Parameters:
    ///   - settings: The bucket's capacity and rate.
    ///   - now: The clock reading.
    public init(settings: RateLimitSettings, now: Duration) {
        capacity = settings.capacity
        tokensPerSecond = settings.tokensPerSecond
        tokens = Double(settings.capacity)
        updatedAt = now
    }

    /// Whether the bucket is paused at `now`.
    ///
    /// - Parameter now: The clock reading.
    /// - Returns: `true` until a pause ends.
    public func isPaused(at now: Duration) -> Bool { now < updatedAt }

    /// Takes a token at `now`, or says how long to wait for one.
    ///
    /// - Parameter now: The clock reading.
    /// - Returns: `nil` when a token was taken; otherwise the wait before trying again.
    public mutating func take(now: Duration) -> Duration? {
        refill(now: now)
        if now >= updatedAt, tokens >= 1 {
            tokens -= 1
            granted += 1
            return nil
        }
        let missing = 1 - tokens + Double(waiting)
        let seconds = missing / tokensPerSecond
        let refillTime: Duration =
            seconds.isFinite && seconds < Duration.longestTimeLimit.timeInterval
            ? .seconds(seconds) : .longestTimeLimit
        return max(updatedAt - now, .zero) + refillTime
    }

    /// Registers a caller about to wait, so later callers are told to wait behind it.
    public mutating func startWaiting() { waiting += 1 }

    /// Unregisters a caller that has stopped waiting (woken, cancelled or given up).
    public mutating func stopWaiting() { waiting = max(waiting - 1, 0) }

    /// Empties the bucket and stops the refill for `duration` from `now` (a longer pause already under way stays).
    ///
    /// - Parameters:
    ///   - now: The clock reading.
    ///   - duration: How long to pause.
    public mutating func pause(now: Duration, for duration: Duration) {
        refill(now: now)
        tokens = 0
        updatedAt = max(updatedAt, now + max(duration, .zero))
    }

    /// Adds the tokens earned since ``updatedAt``, up to ``capacity``.
    private mutating func refill(now: Duration) {
        guard now > updatedAt else { return }
        let earned = (now - updatedAt).timeInterval * tokensPerSecond
        tokens = min(Double(capacity), tokens + (earned.isFinite ? earned : Double(capacity)))
        updatedAt = now
    }
}
