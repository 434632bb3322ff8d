import Foundation
import NetworkingHTTP

/// The source of time for everything in the package that waits or measures: per-attempt timeouts, call deadlines,
/// the idle limit of a streamed body, retry back-off, log durations, `Retry-After` dates.
///
/// The client's clock (``NetworkClient/Configuration/clock``) reaches every behavior that waits or measures, unless
/// a behavior is given a clock of its own. Inject a test clock (`NetworkingTesting.TestClock`) to run all of it in
/// virtual time, through the same code as the real clock: no test ever sleeps.
public protocol NetworkClock: Sendable {
    /// A monotonic reading, as a duration since an arbitrary fixed origin. Only differences are meaningful.
    func now() -> Duration
    /// The wall-clock date, used to read `Retry-After` dates.
    func date() -> Date
    /// Suspends for `duration`, throwing `CancellationError` as soon as the calling task is cancelled.
    func sleep(for duration: Duration) async throws
    /// Runs `action` once `delay` has passed on this clock, unless the returned timer is cancelled first. The
    /// action runs on no particular thread and must be quick. The default implementation sleeps in a task of its own.
    ///
    /// - Parameters:
    ///   - delay: How long from now; zero or less runs the action as soon as possible.
    ///   - action: What to run.
    /// - Returns: The timer, to cancel it.
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ClockTimer
}

extension NetworkClock {
    /// Sleeps in a task of its own, then runs `action` unless the timer was cancelled.
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ClockTimer {
        let pending = LockedBox(true)
        let task = Task {
            try? await sleep(for: delay)
            let due = pending.withLock { state in
                defer { state = false }
                return state
            }
            if due { action() }
        }
        return ClockTimer {
            let cancelled = pending.withLock { state in
                defer { state = false }
                return state
            }
            if cancelled { task.cancel() }
            return cancelled
        }
    }
}

/// The real clock: `ContinuousClock` for readings and sleeps, `Date()` for dates.
public struct SystemClock: NetworkClock {
    private static let origin = ContinuousClock.now

    /// Creates the system clock.
    public init() {}

    /// Time since the first reading in this process.
    public func now() -> Duration {
        ContinuousClock.now - Self.origin
    }

    /// The current date.
    public func date() -> Date {
        Date()
    }

    /// Sleeps on `ContinuousClock`; a zero or negative duration returns at once (after a cancellation check).
    public func sleep(for duration: Duration) async throws {
        guard duration > .zero else {
            try Task.checkCancellation()
            return
        }
        try await Task.sleep(for: duration)
    }

    /// An entry of the process's one timer, a heap of deadlines under one dispatch timer: no task, no thread per
    /// timer.
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ClockTimer {
        let scheduler = DeadlineScheduler.shared
        let id = scheduler.add(deadline: ContinuousClock.now.advanced(by: delay.clampedForTimers), action: action)
        return ClockTimer(entry: id, of: scheduler)
    }
}

extension Duration {
    /// The longest time limit the package arms a timer for: 100 years stands for "no limit" without overflowing
    /// the arithmetic of clocks and dispatch times.
    package static let longestTimeLimit: Duration = .seconds(100 * 365 * 86_400)

    /// The duration clamped to `0...longestTimeLimit`, safe to add to any clock reading.
    package var clampedForTimers: Duration { min(max(self, .zero), .longestTimeLimit) }

    /// The duration in seconds, as a `Double` (for every target of the package: tests, test clock, benchmarks).
    package var seconds: Double { timeInterval }

    /// The duration as Foundation's `TimeInterval` (seconds, as a `Double`): for a retry event's `delay` in a log
    /// line, or an API that takes a `TimeInterval`. Named after Foundation's type so it cannot collide with a
    /// `seconds` of your own.
    public var timeInterval: TimeInterval {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
