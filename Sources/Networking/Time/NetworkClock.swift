import Foundation

/// The source of time for everything in the package that waits or measures: per-attempt timeouts, call deadlines,
/// retry back-off, log durations, `Retry-After` dates.
///
/// Inject a test clock (`NetworkingTesting.TestClock`) to run those in virtual time: no test ever sleeps.
public protocol NetworkClock: Sendable {
    /// A monotonic reading, as a duration since an arbitrary fixed origin. Only differences are meaningful.
    func now() -> Duration
    /// The wall-clock date, used to read `Retry-After` dates.
    func date() -> Date
    /// Suspends for `duration`, throwing `CancellationError` as soon as the calling task is cancelled.
    func sleep(for duration: Duration) async throws
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
}

extension Duration {
    /// The longest time limit the package arms a timer for: 100 years stands for "no limit" without overflowing
    /// the arithmetic of clocks and dispatch times.
    static let longestTimeLimit: Duration = .seconds(100 * 365 * 86_400)

    /// The duration clamped to `0...longestTimeLimit`, safe to add to any clock reading.
    var clampedForTimers: Duration { min(max(self, .zero), .longestTimeLimit) }

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
