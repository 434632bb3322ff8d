import Foundation

/// Writing a body through: instead of buffering chunks for a reader, the buffer hands each one to a sink in the
/// producer's own call, so memory does not depend on how fast the consumer is. Downloads use it to put each chunk
/// in the file as it arrives, which is what keeps them in constant memory where the transport has no flow control.
extension BodyBuffer {
    /// Hands every chunk buffered so far, then every chunk the producer adds, to `sink` (in the producer's call,
    /// one at a time, in order), and returns when the body has ended.
    ///
    /// A sink that throws ends the stream with its error; the producer is told to stop.
    ///
    /// - Parameter sink: Takes one chunk; called with the buffer's lock held, so it must not use this stream.
    /// - Returns: The body's bytes (those the sink took).
    /// - Throws: The transfer's error (after the client's mapping), the sink's error (mapped the same way), or
    ///   `CancellationError` when the stream or the calling task is cancelled.
    package func drain(into sink: @escaping @Sendable (Data) throws -> Void) async throws -> Int64 {
        let (ending, demand, activity) = state.withLock {
            state -> (Ending?, (@Sendable () -> Void)?, (@Sendable () -> Void)?) in
            guard state.termination == nil, state.sink == nil else { return (nil, nil, nil) }
            state.unreadLimit = nil
            let buffered = state.chunks.removeAll()
            state.bufferedBytes = 0
            for chunk in buffered {
                // Ended here, under the lock: the producer may have finished already (every chunk buffered), and
                // a later `finish` leaves a stream that has an ending as it is.
                if let failure = Self.writeThrough(chunk, to: sink, &state) {
                    return (Self.fail(&state, with: failure), nil, nil)
                }
            }
            state.sink = sink
            var demand: (@Sendable () -> Void)?
            if state.full {
                state.full = false
                demand = Self.combine(state.onDemand, state.demandWaiters)
                state.demandWaiters = []
            }
            let ending = state.ending == nil ? nil : Self.terminate(&state, demand: [])
            return (ending, demand, buffered.isEmpty ? nil : state.onActivity)
        }
        activity?()
        demand?()
        if let ending { Self.deliver(ending) }
        let termination = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<HTTPBody.Termination, Never>) in
                onTermination { continuation.resume(returning: $0) }
            }
        } onCancel: {
            finish(.cancelled)
        }
        switch termination.outcome {
        case .finished: return termination.byteCount
        case .failed(let error): throw error
        case .cancelled: throw CancellationError()
        }
    }

    /// Gives `chunk` to `sink` and counts it as delivered; returns the sink's error, if any.
    package static func writeThrough(_ chunk: Data, to sink: @Sendable (Data) throws -> Void, _ state: inout State)
        -> (any Error)?
    {
        do {
            try sink(chunk)
            state.deliveredBytes += Int64(chunk.count)
            return nil
        } catch {
            return error
        }
    }

    /// Ends the stream with the sink's `error`, whatever the producer said before: the reader's failure comes
    /// first (a producer that already finished had its chunks still waiting for the sink). The producer is told to
    /// stop (its waits end, its demand handler is dropped).
    package static func fail(_ state: inout State, with error: any Error) -> Ending {
        _ = state.chunks.removeAll()
        state.bufferedBytes = 0
        state.ending = .failed(error)
        let producers = state.demandWaiters
        state.demandWaiters = []
        state.onDemand = nil
        return terminate(&state, demand: producers)
    }

    /// The most bytes this buffer ever held for its reader at once: what a write-through leaves at zero.
    package var peakBufferedBytes: Int { state.withLock { $0.peakBufferedBytes } }

    /// Whether the body is being written through to a sink (``drain(into:)``).
    package var isWritingThrough: Bool { state.withLock { $0.sink != nil } }
}
