import Foundation
import NetworkingCore
import NetworkingHTTP

extension WebSocketConnection {
    /// The next message; `nil` once the server's close frame came (or the client's closing handshake ended) and
    /// every message before it was taken. Cancelling the waiting task starts the closing handshake with 1001.
    ///
    /// - Throws: `NetworkError` when the connection failed, after the messages received before the failure;
    ///   `CancellationError` when the task was cancelled.
    func nextMessage() async throws -> WebSocketMessage? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<WebSocketMessage?, any Error>) in
                let (outcome, room): (Result<WebSocketMessage?, any Error>?, CheckedContinuation<Void, Never>?) =
                    state.withLock { state in
                        if Task.isCancelled { return (.failure(CancellationError()), nil) }
                        if state.head < state.queue.count {
                            let message = state.queue[state.head]
                            state.head += 1
                            state.bufferedBytes -= Self.size(of: message)
                            if state.head == state.queue.count {
                                state.queue = []
                                state.head = 0
                            } else if state.head > 64, state.head * 2 > state.queue.count {
                                state.queue.removeFirst(state.head)
                                state.head = 0
                            }
                            var room: CheckedContinuation<Void, Never>?
                            if state.bufferedBytes < settings.bufferLimit {
                                room = state.room
                                state.room = nil
                            }
                            return (.success(message), room)
                        }
                        if let failure = state.failure { return (.failure(networkError(failure)), nil) }
                        if state.closeReceived != nil || state.ended { return (.success(nil), nil) }
                        state.consumer = continuation
                        return (nil, nil)
                    }
                room?.resume()
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let consumer = state.withLock { state in
                defer { state.consumer = nil }
                return state.consumer
            }
            consumer?.resume(throwing: CancellationError())
            startClose(.goingAway, reason: "")
        }
    }
}
