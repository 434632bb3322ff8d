import NetworkingHTTP

/// Runs `operation` under a time limit on `clock`, the package's one time-limit mechanism: a timer of the clock
/// (``NetworkClock/schedule(after:_:)``) and a task for the operation. A nil limit runs the operation directly.
///
/// The timer and the operation race for one outcome, claimed once: if the timer claims it first, it cancels the
/// operation and the call throws `onTimeout()`; a value the operation still produced is handed to `discard` (a
/// response body to close), never returned. If the operation claims it first, the timer does nothing: an operation
/// that finished is never cancelled by a late timer, so what it returned (a body still arriving, say) stays alive.
/// The calling task's cancellation is reported as `CancellationError`, never as a timeout. The operation must answer
/// cancellation promptly, as every transport must.
///
/// What the winning timer stops: the operation runs in a task of its own, which the timer cancels, because
/// cancellation is sticky and the calling task, which may retry, must stay uncancelled. With `interruptible` (the
/// operation only waits for an ``InterruptibleTransport`` and its bodies) it runs in the calling task instead,
/// under a ``TransferInterruption`` the timer fires: no task to start, and one thread hop fewer per call.
package func withTimeLimit<T: Sendable>(
    _ limit: Duration?,
    clock: any NetworkClock,
    onTimeout: @escaping @Sendable () -> any Error,
    discard: (@Sendable (T) -> Void)? = nil,
    interruptible: Bool = false,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    guard let limit else { return try await operation() }
    // A cancelled caller can only end in cancellation, never in a timeout: no timer needed.
    if Task.isCancelled { return try await operation() }
    // Each path in a function of its own, not inlined: an async frame is sized for every path of its function,
    // and this one is alive for the whole attempt (10,000 calls in flight keep 10,000 of them).
    if interruptible {
        guard let value = try await withInterruption(after: limit, clock: clock, discard: discard, operation) else {
            throw onTimeout()
        }
        return value
    }
    return try await cancellingTask(after: limit, clock: clock, onTimeout: onTimeout, discard: discard, operation)
}

/// The interruptible path: the operation in the calling task, the timer firing its ``TransferInterruption``. The
/// operation need not escape, and the time-out error is the caller's to make (`nil` when the timer won), so an
/// attempt allocates no closure for either.
///
/// - Returns: What the operation returned, or `nil` when the limit passed first.
/// - Throws: What the operation threw; `CancellationError` when the calling task was cancelled.
@inline(never)
package func withInterruption<T: Sendable>(
    after limit: Duration, clock: any NetworkClock, discard: ((T) -> Void)?, _ operation: () async throws -> T
) async throws -> T? {
    // The interruption is its own claim: one object and one lock for the race and the transfers to stop. Armed and
    // settled in plain functions, whose locals stay out of this async frame (alive for the whole attempt).
    let (interruption, timer) = TransferInterruption.arm(after: limit, clock: clock)
    let result: Result<T, any Error>
    do {
        result = .success(try await TransferInterruption.$current.withValue(interruption) { try await operation() })
    } catch {
        result = .failure(error)
    }
    return try interruption.settle(result, timer: timer, discard: discard)
}

extension TransferInterruption {
    /// A new interruption and the timer that fires it after `limit` on `clock`.
    @inline(never)
    fileprivate static func arm(after limit: Duration, clock: any NetworkClock) -> (TransferInterruption, ClockTimer) {
        let interruption = TransferInterruption()
        let timer = clock.schedule(after: limit.clampedForTimers) {
            if interruption.claim(byTimer: true) { interruption.interrupt() }
        }
        return (interruption, timer)
    }
}

/// The general path: the operation in a task of its own, which the timer cancels.
@inline(never)
private func cancellingTask<T: Sendable>(
    after limit: Duration, clock: any NetworkClock, onTimeout: @escaping @Sendable () -> any Error,
    discard: (@Sendable (T) -> Void)?, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = TimeLimitRace()
    let child = startTask(operation)
    let timer = clock.schedule(after: limit.clampedForTimers) {
        if race.claim(byTimer: true) { child.cancel() }
    }
    let result = await withTaskCancellationHandler {
        await child.result
    } onCancel: {
        child.cancel()
    }
    return try race.settle(result, timer: timer, discard: discard, onTimeout: onTimeout)
}

/// Who ended a time-limited operation: the first to claim wins, once. Claimed by the operation or by the timer.
package protocol TimeLimitClaim: AnyObject, Sendable {
    /// Claims the outcome; returns whether this claimer won. The timer wins with `byTimer`, the operation without.
    func claim(byTimer: Bool) -> Bool
}

extension TimeLimitClaim {
    /// The call's outcome once the operation has `result`: the timer is cancelled; if the operation claims the
    /// outcome first, its result; otherwise a value it still produced goes to `discard`, and the caller gets the
    /// timeout (or `CancellationError` when the caller itself was cancelled).
    func settle<T>(
        _ result: Result<T, any Error>, timer: ClockTimer, discard: ((T) -> Void)?, onTimeout: () -> any Error
    ) throws -> T {
        guard let value = try settle(result, timer: timer, discard: discard) else { throw onTimeout() }
        return value
    }

    /// ``settle(_:timer:discard:onTimeout:)`` for a caller that makes its time-out error itself: `nil` for it.
    @inline(never)
    func settle<T>(_ result: Result<T, any Error>, timer: ClockTimer, discard: ((T) -> Void)?) throws -> T? {
        timer.cancel()
        if claim(byTimer: false) { return try result.get() }
        if case .success(let value) = result { discard?(value) }
        try Task.checkCancellation()
        return nil
    }
}

/// The claim of the task path.
private final class TimeLimitRace: TimeLimitClaim {
    private let claimed = LockedBox<Bool?>(nil)

    func claim(byTimer: Bool) -> Bool {
        claimed.withLock { winner in
            guard winner == nil else { return winner == byTimer }
            winner = byTimer
            return true
        }
    }
}

/// Starts `operation` in a task that can be cancelled on its own; where the runtime offers `Task.immediate`
/// (Swift 6.2), it runs on this thread until it first suspends, which spares an operation that answers at once
/// two hops between threads.
private func startTask<T: Sendable>(
    _ operation: @escaping @Sendable () async throws -> T
) -> Task<T, any Error> {
    #if compiler(>=6.2)
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            return Task.immediate { try await operation() }
        }
    #endif
    return Task { try await operation() }
}
