import Foundation
import NetworkingHTTP
import NetworkingCore

/// A `NetworkClock` in virtual time, for testing timeouts, back-off and durations without sleeping.
///
/// In the default `.automatic` mode a sleep returns at once and moves the clock forward by its duration, so a
/// retry sequence with back-off runs instantly while ``sleeps`` records each wait. In `.manual` mode a sleep
/// suspends until ``advance(by:)`` moves the clock past its end (or the sleeping task is cancelled), for tests
/// that need to act while something waits.
///
/// Timers (``schedule(after:_:)``, which every time limit of the client uses) fire when virtual time passes their
/// end: in `.manual` mode on ``advance(by:)``, in `.automatic` mode also when a sleep moves the clock. Given to
/// `NetworkClient/Configuration/clock`, either mode drives the client's attempt timeouts, deadlines and idle limits
/// through the same code as the system clock; in `.automatic` mode a back-off that sleeps past a limit ends it.
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

    private struct Timer {
        let deadline: Duration
        let action: @Sendable () -> Void
    }

    private struct State {
        var now: Duration = .zero
        var sleeps: [Duration] = []
        var sleepers: [UInt64: Sleeper] = [:]
        var timers: [UInt64: Timer] = [:]
        var scheduled: [Duration] = []
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

    /// How many timers are waiting to fire: the time limits of calls in flight, among others.
    public var pendingTimerCount: Int { state.withLock { $0.timers.count } }

    /// The delay of every timer scheduled so far, in order: the attempt limits, deadlines and idle limits the
    /// client armed, among others.
    public var scheduledDelays: [Duration] { state.withLock { $0.scheduled } }

    /// Waits (yielding, not sleeping) until `count` timers are pending, so a test can advance at the right moment.
    public func waitForTimers(_ count: Int = 1) async {
        while pendingTimerCount < count {
            await Task.yield()
        }
    }

    /// Runs `action` once virtual time has moved `delay` past now (at once when `delay` is zero or less), unless the
    /// timer is cancelled first.
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ClockTimer {
        let id: UInt64? = state.withLock { state in
            state.scheduled.append(delay)
            guard delay > .zero else { return nil }
            state.nextID += 1
            state.timers[state.nextID] = Timer(deadline: state.now + delay, action: action)
            return state.nextID
        }
        guard let id else {
            action()
            return ClockTimer { false }
        }
        return ClockTimer { [state] in state.withLock { $0.timers.removeValue(forKey: id) != nil } }
    }

    /// Records the sleep; in automatic mode advances the clock and returns, in manual mode waits for ``advance(by:)``.
    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        if mode == .automatic {
            let due = state.withLock { state -> [Timer] in
                state.sleeps.append(duration)
                state.now += max(duration, .zero)
                return Self.takeDueTimers(&state)
            }
            for timer in due { timer.action() }
            return
        }
        let id: UInt64 = state.withLock {
            $0.sleeps.append(duration)
            $0.nextID += 1
            return $0.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Checked under the lock the cancellation handler takes: a cancellation that came before this
                // registration (its handler found no sleeper) is seen here, and one after finds the sleeper.
                let outcome: Result<Bool, CancellationError> = state.withLock {
                    if Task.isCancelled { return .failure(CancellationError()) }
                    let deadline = $0.now + max(duration, .zero)
                    if deadline <= $0.now { return .success(true) }
                    $0.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return .success(false)
                }
                switch outcome {
                case .success(true): continuation.resume()
                case .success(false): break
                case .failure(let error): continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward and wakes every sleep whose end has passed.
    public func advance(by duration: Duration) {
        let (due, timers): ([Sleeper], [Timer]) = state.withLock { state in
            state.now += duration
            let ready = state.sleepers.filter { $0.value.deadline <= state.now }
            for key in ready.keys { state.sleepers[key] = nil }
            return (Array(ready.values), Self.takeDueTimers(&state))
        }
        for timer in timers { timer.action() }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Removes and returns the timers due at the state's time, earliest first.
    private static func takeDueTimers(_ state: inout State) -> [Timer] {
        let ready = state.timers.filter { $0.value.deadline <= state.now }.sorted {
            $0.value.deadline < $1.value.deadline
        }
        for (key, _) in ready { state.timers[key] = nil }
        return ready.map(\.value)
    }

    /// Waits (yielding, not sleeping) until `count` sleeps are pending, so a test can advance at the right moment.
    public func waitForSleepers(_ count: Int = 1) async {
        while pendingSleepCount < count {
            await Task.yield()
        }
    }
}
