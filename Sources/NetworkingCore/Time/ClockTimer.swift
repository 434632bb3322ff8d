import NetworkingHTTP

/// An action a ``NetworkClock`` runs later (``NetworkClock/schedule(after:_:)``), until it is cancelled.
///
/// The package's one way to wait for time to pass without holding a task: attempt and call limits, the idle limit of
/// a streamed body and every other time limit are timers of the client's clock, so a test clock drives the same
/// code the system clock does.
public struct ClockTimer: Sendable {
    /// How the timer is stopped: a function of the clock's, or an entry of the system clock's scheduler (named
    /// directly, so arming a time limit on the system clock allocates no closure for its cancellation).
    private enum Cancellation: Sendable {
        case function(@Sendable () -> Bool)
        case entry(DeadlineScheduler, UInt64)
    }

    private let cancellation: Cancellation

    /// Creates a timer.
    ///
    /// - Parameter cancel: Stops the action; returns `true` if it had not run and now never will.
    public init(cancel: @escaping @Sendable () -> Bool) {
        self.cancellation = .function(cancel)
    }

    /// A timer that is the entry `id` of `scheduler`.
    package init(entry id: UInt64, of scheduler: DeadlineScheduler) {
        self.cancellation = .entry(scheduler, id)
    }

    /// Stops the action if it has not run yet.
    ///
    /// - Returns: `true` if the action had not run and now never will; `false` if it ran or is running.
    @discardableResult
    public func cancel() -> Bool {
        switch cancellation {
        case .function(let cancel): cancel()
        case .entry(let scheduler, let id): scheduler.remove(id)
        }
    }
}
