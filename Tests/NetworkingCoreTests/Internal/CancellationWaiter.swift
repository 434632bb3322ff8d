import Networking
import NetworkingTestSupport

/// An operation that never finishes on its own: it waits on a continuation that only the cancellation of its task
/// resumes, then throws `CancellationError`. Lets a test see the real timer cancel an operation without sleeping.
final class CancellationWaiter: Sendable {
    /// Whether the operation is waiting, whether it was cancelled, and its continuation while it waits.
    private let state = LockedBox<(waiting: Bool, cancelled: Bool, continuation: CheckedContinuation<Void, Never>?)>(
        (false, false, nil))

    /// Whether an operation is waiting (or was, before it was cancelled).
    var isWaiting: Bool { state.current.waiting }

    /// Whether the waiting task was cancelled.
    var wasCancelled: Bool { state.current.cancelled }

    /// Waits until the calling task is cancelled, then throws `CancellationError`.
    func waitForCancellation() async throws {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    state.waiting = true
                    if state.cancelled { return true }
                    state.continuation = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.cancelled = true
                defer { state.continuation = nil }
                return state.continuation
            }
            continuation?.resume()
        }
        throw CancellationError()
    }
}
