import NetworkingHTTP

/// The moment by which a whole call must finish, on the client's clock.
///
/// The client bounds every attempt by the time left, and `RetryBehavior` gives up rather than wait past it, so
/// a call spends no longer than its deadline in the transport and in back-off. A behavior that waits on
/// something of its own (a token refresher, a lock) should bound that wait itself.
public struct CallDeadline: Sendable {
    /// The clock the deadline is read on.
    public let clock: any NetworkClock
    /// The clock reading (``NetworkClock/now()``) at which the call runs out of time.
    public let instant: Duration
    /// The whole-call limit it was made from, for messages.
    public let limit: Duration

    /// Creates a deadline `limit` from now on `clock`.
    ///
    /// - Parameters:
    ///   - limit: How long the call may take.
    ///   - clock: The clock to measure it on.
    public init(limit: Duration, clock: any NetworkClock) {
        self.clock = clock
        self.limit = limit
        self.instant = clock.now() + limit.clampedForTimers
    }

    /// The time left; zero or negative once the deadline has passed.
    public func remaining() -> Duration {
        instant - clock.now()
    }
}
