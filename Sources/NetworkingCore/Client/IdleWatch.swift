import Foundation
import NetworkingHTTP

/// The time limits of a body handed to the caller as it arrives (a stream, a download), on the client's clock:
/// - **idle**: the body fails with `timedOut(.attempt)` once no byte came for the attempt timeout while the reader
///   had read everything received (a reader busy with buffered chunks is behind; the network is not silent on it);
/// - **deadline**: the call's deadline, if any, still ends it with `timedOut(.call)`.
///
/// Both are timers of the clock (``NetworkClock/schedule(after:_:)``), the same mechanism as every other limit: no
/// task runs while the body waits. Bytes that arrived before a time-out are delivered first; the time-out is the
/// error after them, never a cancellation. The watch ends with the body.
package final class IdleWatch: Sendable {
    private struct State {
        var lastActivity: Duration
        var idleTimer: ClockTimer?
        var deadlineTimer: ClockTimer?
        var ended = false
    }

    private let buffer: BodyBuffer
    private let clock: any NetworkClock
    private let idle: Duration
    private let idleError: @Sendable () -> NetworkError
    private let state: LockedBox<State>

    private init(
        buffer: BodyBuffer, clock: any NetworkClock, idle: Duration, idleError: @escaping @Sendable () -> NetworkError
    ) {
        self.buffer = buffer
        self.clock = clock
        self.idle = idle
        self.idleError = idleError
        self.state = LockedBox(State(lastActivity: clock.now()))
    }

    /// Watches `body`, a body arriving for the caller of `attempt` whose last hop was `sent`.
    package static func start(on body: HTTPBody, attempt: Attempt, sent: HTTPRequest) {
        guard let buffer = body.buffer else { return }
        let idle = attempt.timeout.clampedForTimers
        let watch = IdleWatch(
            buffer: buffer, clock: attempt.clock, idle: idle,
            idleError: attempt.timeoutError(scope: .attempt, limit: idle, sent: sent, what: "no byte of the body"))
        buffer.configure(
            onActivity: { [weak watch] in watch?.noteActivity() },
            errorTransform: { error in attempt.failure(error, sent: sent) })
        if let deadline = attempt.deadline {
            let error = attempt.timeoutError(scope: .call, limit: deadline.limit, sent: sent, what: "")
            let timer = attempt.clock.schedule(after: deadline.remaining()) { buffer.finish(.failed(error())) }
            watch.state.withLock { $0.deadlineTimer = timer }
        }
        watch.arm(after: idle)
        buffer.onTermination { _ in watch.end() }
    }

    private func noteActivity() {
        let now = clock.now()
        state.withLock { $0.lastActivity = now }
    }

    /// Arms the idle timer to fire after `delay`, unless the watch has ended.
    private func arm(after delay: Duration) {
        let timer = clock.schedule(after: delay) { [self] in fire() }
        let stale = state.withLock { state -> ClockTimer? in
            guard !state.ended else { return timer }
            state.idleTimer = timer
            return nil
        }
        stale?.cancel()
    }

    /// Ends the body with the idle error if it has been idle long enough, else waits for the rest.
    private func fire() {
        let now = clock.now()
        if buffer.hasUnreadChunks { noteActivity() }
        let left = state.withLock { $0.lastActivity } + idle - now
        if left <= .zero {
            buffer.finish(.failed(idleError()))
        } else {
            arm(after: left)
        }
    }

    private func end() {
        let timers = state.withLock { state -> [ClockTimer] in
            state.ended = true
            defer { (state.idleTimer, state.deadlineTimer) = (nil, nil) }
            return [state.idleTimer, state.deadlineTimer].compactMap { $0 }
        }
        for timer in timers { timer.cancel() }
    }
}
