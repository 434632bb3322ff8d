import Foundation
import Networking

/// A ``NetworkClock`` in virtual time, for testing timeouts, back-off and durations without sleeping.
///
/// In the default `.automatic` mode a sleep returns at once and moves the clock forward by its duration, so a
/// retry sequence with back-off runs instantly while ``sleeps`` records each wait. In `.manual` mode a sleep
/// suspends until ``advance(by:)`` moves the clock past its end (or the sleeping task is cancelled), for tests
/// that need to act while something waits.
///
/// Give a `.manual` clock (or the system clock), never an `.automatic` one, to
/// ``NetworkClient/Configuration/clock``: an automatic clock ends every sleep at once, so the client's time limits
/// would fire before the transport could answer. Automatic clocks are for behaviors' back-off.
public final class TestClock: NetworkClock {
    /// How sleeps behave.
    public enum Mode: Sendable {
        /// Sleeps return at once and advance the clock.
        case automatic
        /// Sleeps wait for ``TestClock/advance(by:)``.
        case manual
    }

    private struct Sleeper {
        let deadline: Duration
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Duration = .zero
        var sleeps: [Duration] = []
        var sleepers: [UInt64: Sleeper] = [:]
        var nextID: UInt64 = 0
    }

    private let mode: Mode
    private let startDate: Date
    private let state = LockedBox(State())

    /// Creates a clock at time zero whose ``date()`` starts at `startDate`.
    public init(mode: Mode = .automatic, startDate: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        self.mode = mode
        self.startDate = startDate
    }

    /// The virtual time elapsed.
    public func now() -> Duration { state.withLock { $0.now } }

    /// `startDate` plus the virtual time elapsed.
    public func date() -> Date {
        startDate.addingTimeInterval(now().seconds)
    }

    /// Every sleep requested so far, in order.
    public var sleeps: [Duration] { state.withLock { $0.sleeps } }

    /// How many sleeps are waiting (manual mode).
    public var pendingSleepCount: Int { state.withLock { $0.sleepers.count } }

    /// Records the sleep; in automatic mode advances the clock and returns, in manual mode waits for ``advance(by:)``.
    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        if mode == .automatic {
            state.withLock {
                $0.sleeps.append(duration)
                $0.now += max(duration, .zero)
            }
            return
        }
        let id: UInt64 = state.withLock {
            $0.sleeps.append(duration)
            $0.nextID += 1
            return $0.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Bool = state.withLock {
                    let deadline = $0.now + max(duration, .zero)
                    if deadline <= $0.now { return true }
                    $0.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward and wakes every sleep whose end has passed.
    public func advance(by duration: Duration) {
        let due: [Sleeper] = state.withLock { state in
            state.now += duration
            let ready = state.sleepers.filter { $0.value.deadline <= state.now }
            for key in ready.keys { state.sleepers[key] = nil }
            return Array(ready.values)
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Waits (yielding, not sleeping) until `count` sleeps are pending, so a test can advance at the right moment.
    public func waitForSleepers(_ count: Int = 1) async {
        while pendingSleepCount < count {
            await Task.yield()
        }
    }
}
