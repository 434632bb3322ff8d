import NetworkingHTTP

/// An action a ``NetworkClock`` runs later (``NetworkClock/schedule(after:_:)``), until it is cancelled.
///
/// The package's one way to wait for time to pass without holding a task: attempt and call limits, the idle limit of
/// a streamed body and every other time limit are timers of the client's clock, so a test clock drives the same
/// code the system clock does.
public struct ClockTimer: Sendable {
    private let cancellation: @Sendable () -> Bool

    /// Creates a timer.
    ///
    /// - Parameter cancel: Stops the action; returns `true` if it had not run and now never will.
    public init(cancel: @escaping @Sendable () -> Bool) {
        self.cancellation = cancel
    }

    /// Stops the action if it has not run yet.
    ///
    /// - Returns: `true` if the action had not run and now never will; `false` if it ran or is running.
    @discardableResult
    public func cancel() -> Bool {
        cancellation()
    }
}
