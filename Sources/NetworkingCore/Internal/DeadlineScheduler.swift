import Dispatch
import NetworkingHTTP

/// The process's one timer for time limits on the real clock: a ``DeadlineHeap`` behind a lock and a single
/// dispatch timer armed for the earliest deadline.
///
/// A call adds an entry (an action that cancels the task running its operation) and removes it when it ends, so
/// nothing of a call outlives it. The timer is re-armed only when a new entry is due before the time it is armed
/// for; an entry removed before then leaves it armed, and a firing that finds nothing due re-arms it for the
/// earliest pending entry. A steady stream of calls with the same limit therefore touches the timer about once
/// per limit, not once per call.
///
/// The heap keeps `ContinuousClock` instants (``SystemClock``'s clock); the dispatch timer waits on the uptime
/// clock, so after the device sleeps the timer may fire late and is then re-armed for what is left.
package final class DeadlineScheduler: Sendable {
    /// The scheduler of every time limit on ``SystemClock``.
    package static let shared = DeadlineScheduler()

    /// How late the timer may fire, so the system can coalesce wake-ups.
    private static let leeway: DispatchTimeInterval = .milliseconds(1)

    /// The pending entries, the instant the timer is armed for (nil when it is not armed) and the timer itself.
    private typealias State = (heap: DeadlineHeap, armedFor: ContinuousClock.Instant?, timer: any DispatchSourceTimer)

    /// The state, behind the lock.
    private let state: LockedBox<State>

    /// Creates a scheduler with a timer of its own; the process shares ``shared``, tests make their own.
    package init() {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "Networking.DeadlineScheduler"))
        state = LockedBox((DeadlineHeap(), nil, timer))
        timer.setEventHandler { [weak self] in self?.fireDue() }
        timer.activate()
    }

    deinit {
        state.withLock { $0.timer.cancel() }
    }

    /// The number of pending entries: calls in flight under a time limit of this scheduler.
    package var pendingCount: Int {
        state.withLock { $0.heap.count }
    }

    /// Schedules `action` to run on the scheduler's queue once `deadline` has passed, unless removed first.
    ///
    /// - Returns: The entry's id, for ``remove(_:)``.
    package func add(deadline: ContinuousClock.Instant, action: @escaping @Sendable () -> Void) -> UInt64 {
        state.withLock { state in
            let id = state.heap.insert(deadline: deadline, action: action)
            if state.armedFor.map({ deadline < $0 }) ?? true {
                Self.arm(&state, for: deadline, now: .now)
            }
            return id
        }
    }

    /// Removes the entry `id`.
    ///
    /// - Returns: True if it was pending; false if its deadline passed and it was taken to run (or already ran).
    @discardableResult
    package func remove(_ id: UInt64) -> Bool {
        state.withLock { $0.heap.remove(id) }
    }

    /// Runs the actions of every entry due at `now`, earliest first, and arms the timer for the next one.
    ///
    /// The timer calls this; tests call it with an instant of their choosing to check the order without waiting.
    package func fireDue(at now: ContinuousClock.Instant = .now) {
        let due = state.withLock { state in
            let due = state.heap.removeDue(at: now)
            state.armedFor = nil
            if let next = state.heap.earliest {
                Self.arm(&state, for: next, now: now)
            }
            return due
        }
        for action in due { action() }
    }

    /// Arms the one-shot timer to fire at `deadline` (at once if it has passed); called under the lock.
    private static func arm(
        _ state: inout State, for deadline: ContinuousClock.Instant, now: ContinuousClock.Instant
    ) {
        state.armedFor = deadline
        state.timer.schedule(deadline: .now(plus: deadline - now), leeway: leeway)
    }
}
