/// Runs `operation` racing a timer on `clock`; if the timer wins, cancels the operation and throws `onTimeout()`.
///
/// Cancellation of the calling task is reported as `CancellationError`, never as a timeout. The operation must
/// answer cancellation promptly (every transport must), as the timer's error is thrown once it has.
func withTimeLimit<T: Sendable>(
    _ limit: Duration?,
    clock: any NetworkClock,
    onTimeout: @escaping @Sendable () -> any Error,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    guard let limit else { return try await operation() }
    return try await withThrowingTaskGroup(of: T.self) { group in
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

/// Thrown by the timer child of ``withTimeLimit(_:clock:onTimeout:_:)``.
private struct TimeLimitReached: Error {}
