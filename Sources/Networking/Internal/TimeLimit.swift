/// Runs `operation` under a time limit on `clock`; if the limit passes first, cancels the operation and throws
/// `onTimeout()` once it has returned. A nil limit runs the operation directly.
///
/// Cancellation of the calling task is reported as `CancellationError`, never as a timeout. The operation must
/// answer cancellation promptly (every transport must), as the timer's error is thrown once it has.
///
/// On ``SystemClock`` the limit is an entry of `scheduler` (the process's one timer, ``DeadlineScheduler/shared``),
/// removed when the call ends, and the operation runs in a task of its own that the timer cancels: the calling
/// task's cancellation is sticky, so it must not be the one cancelled. On any other clock (a test clock in virtual
/// time) the operation races `clock.sleep(for:)` in a task group.
package func withTimeLimit<T: Sendable>(
    _ limit: Duration?,
    clock: any NetworkClock,
    scheduler: DeadlineScheduler = .shared,
    onTimeout: @escaping @Sendable () -> any Error,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    guard let limit else { return try await operation() }
    if clock is SystemClock {
        return try await withScheduledLimit(limit, scheduler: scheduler, onTimeout: onTimeout, operation)
    }
    return try await withRacingSleep(limit, clock: clock, onTimeout: onTimeout, operation)
}

/// The real-clock path of ``withTimeLimit(_:clock:scheduler:onTimeout:_:)``: one entry in `scheduler`, one task.
private func withScheduledLimit<T: Sendable>(
    _ limit: Duration,
    scheduler: DeadlineScheduler,
    onTimeout: @escaping @Sendable () -> any Error,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    // A cancelled caller can only end in cancellation, never in a timeout: the operation sees the cancellation
    // in this task as it would in a child, and no timer is needed.
    if Task.isCancelled { return try await operation() }
    let deadline = ContinuousClock.now.advanced(by: limit.clampedForTimers)
    let child = startTask(operation)
    let entry = scheduler.add(deadline: deadline) { child.cancel() }
    let result = await withTaskCancellationHandler {
        await child.result
    } onCancel: {
        child.cancel()
    }
    // The entry is gone only if the timer took it: the limit passed before this call saw the outcome. An
    // operation that had already produced a value keeps it (a request the server carried out is not a timeout);
    // anything else, a cancellation by the timer above all, is the timeout.
    guard scheduler.remove(entry) else {
        try Task.checkCancellation()
        if case .success(let value) = result { return value }
        throw onTimeout()
    }
    return try result.get()
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

/// The path of ``withTimeLimit(_:clock:scheduler:onTimeout:_:)`` for clocks other than ``SystemClock``: the
/// operation races `clock.sleep(for:)` in a task group, so limits follow the clock's (virtual) time.
private func withRacingSleep<T: Sendable>(
    _ limit: Duration,
    clock: any NetworkClock,
    onTimeout: @escaping @Sendable () -> any Error,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await clock.sleep(for: limit)
            throw TimeLimitReached()
        }
        defer { group.cancelAll() }
        do {
            // Both children either return or throw, so `next()` yields at least one result.
            return try await group.next()!
        } catch is TimeLimitReached {
            try Task.checkCancellation()
            throw onTimeout()
        }
    }
}

/// Thrown by the timer child of ``withTimeLimit(_:clock:scheduler:onTimeout:_:)`` on a clock other than
/// ``SystemClock``.
private struct TimeLimitReached: Error {}
