import Foundation

extension BodyBuffer {
    /// Sets what the client adds to a stream: a call on each chunk in or out (the idle timer's activity) and the
    /// mapping of a transfer error to the call's `NetworkError`.
    package func configure(
        onActivity: @escaping @Sendable () -> Void, errorTransform: @escaping @Sendable (any Error) -> any Error
    ) {
        state.withLock { state in
            state.onActivity = onActivity
            state.errorTransform = errorTransform
        }
    }

    /// Whether the reader is holding the producer back (the buffer is full).
    package var isFull: Bool { state.withLock { $0.full } }

    /// The trailer fields the producer finished the body with; `nil` until the reader has read the body to its end
    /// (they come after the body), and when the producer gave none.
    package var trailerFields: HTTPFields? {
        state.withLock { state in
            guard case .finished? = state.termination?.outcome else { return nil }
            return state.trailerFields
        }
    }

    /// Whether the stream has ended for its observers.
    package var isTerminated: Bool { state.withLock { $0.termination != nil } }

    /// Whether a reader is waiting for the next chunk.
    package var hasWaitingReader: Bool { state.withLock { $0.waiter != nil } }

    /// Whether chunks received are still waiting to be read: the reader, not the network, is behind.
    package var hasUnreadChunks: Bool { state.withLock { !$0.chunks.isEmpty } }
}

extension BodyBuffer {
    /// Every chunk already buffered, taken at once without waiting (empty when none): lets a fast reader, such as
    /// a download writing to disk, take many network reads per wake-up.
    package func takeBuffered() -> [Data] {
        let (chunks, demand, activity): ([Data], (@Sendable () -> Void)?, (@Sendable () -> Void)?) = state.withLock {
            state in
            guard !state.chunks.isEmpty else { return ([], nil, nil) }
            let taken = Array(state.chunks.removeAll())
            let bytes = taken.reduce(0) { $0 + $1.count }
            state.bufferedBytes -= bytes
            state.deliveredBytes += Int64(bytes)
            var demand: (@Sendable () -> Void)?
            if state.full {
                state.full = false
                let waiters = state.demandWaiters
                state.demandWaiters = []
                demand = Self.combine(state.onDemand, waiters)
            }
            return (taken, demand, state.onActivity)
        }
        activity?()
        demand?()
        return chunks
    }
}
