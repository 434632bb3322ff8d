import Foundation
import NetworkingHTTP
import NetworkingCore

/// One shared call of ``CoalescingBehavior``: the transport call of the first caller of a key, and every caller
/// waiting for its outcome.
///
/// Made by the behavior and kept in a ``CoalescingTable`` while it is open. It closes when it has its outcome
/// (every waiter gets it), or when the last waiter leaves (cancelled or out of time), which cancels the shared
/// call. A closed call takes no new waiters and removes itself from its table; the next caller starts a new one.
public final class InFlightCall: Sendable {
    /// The key the call answers.
    public let key: CoalescingKey
    private let state = LockedBox(State())
    private let onClose: @Sendable (InFlightCall) -> Void

    private struct State {
        var members: Set<UUID> = []
        var continuations: [UUID: CheckedContinuation<(HTTPResponse, HTTPResponse.Body), any Error>] = [:]
        var leftBeforeWaiting: Set<UUID> = []
        var outcome: Result<(HTTPResponse, HTTPResponse.Body), any Error>?
        var isClosed = false
        var task: Task<Void, Never>?
    }

    init(key: CoalescingKey, onClose: @escaping @Sendable (InFlightCall) -> Void) {
        self.key = key
        self.onClose = onClose
    }

    /// The number of callers waiting for the outcome.
    public var waiterCount: Int { state.withLock { $0.isClosed ? 0 : $0.members.count } }

    /// Whether the call has its outcome or was abandoned: it takes no new waiters.
    public var isClosed: Bool { state.withLock { $0.isClosed } }

    /// Adds waiter `id`; the first one starts `operation` in a task of its own, which no single waiter's
    /// cancellation cancels. Returns `false` when the call is closed.
    func join(
        _ id: UUID, operation: @escaping @Sendable () async throws -> (HTTPResponse, HTTPResponse.Body)
    ) -> Bool {
        state.withLock { state in
            guard !state.isClosed else { return false }
            state.members.insert(id)
            if state.task == nil {
                state.task = Task { [self] in
                    do {
                        finish(.success(try await operation()))
                    } catch {
                        finish(.failure(error))
                    }
                }
            }
            return true
        }
    }

    /// Waits for the outcome as waiter `id`; cancelling the waiting task makes `id` leave.
    func wait(_ id: UUID) async throws -> (HTTPResponse, HTTPResponse.Body) {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready = state.withLock { state -> Result<(HTTPResponse, HTTPResponse.Body), any Error>? in
                    if state.leftBeforeWaiting.remove(id) != nil { return .failure(CancellationError()) }
                    if let outcome = state.outcome {
                        state.members.remove(id)
                        return outcome
                    }
                    state.continuations[id] = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            leave(id)
        }
    }

    /// Waiter `id` gives up: it gets `CancellationError`; the last one out cancels the shared call.
    private func leave(_ id: UUID) {
        let (continuation, abandoned) = state.withLock { state in
            guard state.members.remove(id) != nil else {
                return (
                    CheckedContinuation<(HTTPResponse, HTTPResponse.Body), any Error>?.none, Task<Void, Never>?.none
                )
            }
            let continuation = state.continuations.removeValue(forKey: id)
            if continuation == nil { state.leftBeforeWaiting.insert(id) }
            guard state.members.isEmpty, state.outcome == nil, !state.isClosed else { return (continuation, nil) }
            state.isClosed = true
            return (continuation, state.task)
        }
        // Out of the table before anyone wakes: a caller that returns finds no closed call left behind.
        if abandoned != nil { onClose(self) }
        continuation?.resume(throwing: CancellationError())
        abandoned?.cancel()
    }

    /// Hands the shared call's outcome to every waiter, once the call is out of its table (so a waiter that returns
    /// never sees it still listed).
    private func finish(_ outcome: Result<(HTTPResponse, HTTPResponse.Body), any Error>) {
        let waiting = state.withLock { state in
            state.outcome = outcome
            state.isClosed = true
            let waiting = state.continuations
            state.continuations = [:]
            for id in waiting.keys { state.members.remove(id) }
            return waiting
        }
        onClose(self)
        for continuation in waiting.values { continuation.resume(with: outcome) }
    }
}
