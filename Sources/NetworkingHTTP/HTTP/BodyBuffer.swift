import Foundation

#if os(Linux)
    import Synchronization
#endif

/// The shared state of one ``HTTPBody``: the bounded buffer between the producer (a transport) and the
/// one reader, and the observers told when the stream ends.
package final class BodyBuffer: Sendable {
    package struct State {
        var chunks = ChunkQueue()
        var bufferedBytes = 0
        var deliveredBytes: Int64 = 0
        var receivedBytes: Int64 = 0
        /// Set once the producer has been told the buffer is full, until the reader drains it to half.
        var full = false
        var ending: HTTPBody.Termination.Outcome?
        var termination: HTTPBody.Termination?
        var waiter: CheckedContinuation<Data?, any Error>?
        var demandWaiters: [CheckedContinuation<Void, any Error>] = []
        var observers: [@Sendable (HTTPBody.Termination) -> Void] = []
        var onDemand: (@Sendable () -> Void)?
        var onActivity: (@Sendable () -> Void)?
        var errorTransform: (@Sendable (any Error) -> any Error)?
        /// Set while the body is written through (``drain(into:)``): each chunk goes to it, in the producer's call.
        var sink: (@Sendable (Data) throws -> Void)?
        /// The most bytes ever buffered at once.
        var peakBufferedBytes = 0
        /// The lower limit that holds until the reader first asks for a chunk or attaches a sink
        /// (``BodyBuffer/unreadLimit``); `nil` from then on.
        var unreadLimit: Int?
        /// The trailer fields the producer finished with (``finish(_:trailerFields:)``).
        var trailerFields: HTTPFields?
    }

    package typealias Observer = @Sendable (HTTPBody.Termination) -> Void
    /// What ending the stream hands out of the lock: the waiting reader and its result, the termination and its
    /// observers, and the producers waiting for room.
    package typealias Ending = (
        CheckedContinuation<Data?, any Error>?, Result<Data?, any Error>, HTTPBody.Termination?,
        [Observer], [CheckedContinuation<Void, any Error>]
    )
    /// What one read hands out of the lock.
    package typealias Step = (
        Result<Data?, any Error>?, (@Sendable () -> Void)?, (@Sendable () -> Void)?, HTTPBody.Termination?,
        [Observer]
    )

    package let limit: Int
    /// The state, behind a lock kept in the object itself on Linux (`Mutex`: every response body makes one); a lock
    /// box where `Mutex` needs a newer OS.
    // Apple docs checked: Mutex (developer.apple.com/documentation/synchronization/mutex) needs macOS 15, iOS 18,
    // tvOS 18, watchOS 11, above this package's minimums; Linux has it with the toolchain.
    #if os(Linux) && !NETWORKING_APPLE_PATHS && !NETWORKING_TSAN
        package let state: Mutex<State>
    #else
        package let state: LockedBox<State>
    #endif

    /// The most a body buffers before anyone reads it: 128 KiB (8 network reads of 16 KiB). The transport hands the
    /// head over while the body keeps arriving; until the caller reads, or writes the body through (a download),
    /// more would only sit in memory beside what the caller will buffer itself. The first read lifts it to
    /// ``limit``.
    package static let unreadLimit = 128 * 1024

    package init(limit: Int, onDemand: (@Sendable () -> Void)?) {
        self.limit = max(1, limit)
        let state = State(onDemand: onDemand, unreadLimit: min(max(1, limit), Self.unreadLimit))
        // Apple docs checked: Mutex (developer.apple.com/documentation/synchronization/mutex) needs macOS 15, iOS 18,
        // tvOS 18, watchOS 11; the lock box serves there (the stored property's condition above).
        #if os(Linux) && !NETWORKING_APPLE_PATHS && !NETWORKING_TSAN
            self.state = Mutex(state)
        #else
            self.state = LockedBox(state)
        #endif
    }

    /// Adds a chunk; returns whether the reader has room for more.
    package func yield(_ chunk: Data) -> Bool {
        guard !chunk.isEmpty else { return state.withLock { $0.ending == nil && !$0.full } }
        var sinkEnding: Ending?
        let (waiter, activity, room): (CheckedContinuation<Data?, any Error>?, (@Sendable () -> Void)?, Bool) =
            state.withLock { state in
                guard state.ending == nil else { return (nil, nil, false) }
                state.receivedBytes += Int64(chunk.count)
                if let sink = state.sink {
                    let activity = state.onActivity
                    guard let failure = Self.writeThrough(chunk, to: sink, &state) else { return (nil, activity, true) }
                    sinkEnding = Self.fail(&state, with: failure)
                    return (nil, activity, false)
                }
                if let waiter = state.waiter {
                    state.waiter = nil
                    state.deliveredBytes += Int64(chunk.count)
                    return (waiter, state.onActivity, true)
                }
                state.chunks.append(chunk)
                state.bufferedBytes += chunk.count
                state.peakBufferedBytes = max(state.peakBufferedBytes, state.bufferedBytes)
                if state.bufferedBytes >= state.unreadLimit ?? limit { state.full = true }
                return (nil, state.onActivity, !state.full)
            }
        activity?()
        waiter?.resume(returning: chunk)
        if let sinkEnding { Self.deliver(sinkEnding) }
        return room
    }

    /// Waits until the reader has room, or throws `CancellationError` once the stream has ended.
    package func waitForDemand() async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if state.ending != nil || Task.isCancelled { return .failure(CancellationError()) }
                    if !state.full { return .success(()) }
                    state.demandWaiters.append(continuation)
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiters = state.withLock { state in
                defer { state.demandWaiters = [] }
                return state.demandWaiters
            }
            for waiter in waiters { waiter.resume(throwing: CancellationError()) }
        }
    }

    /// Ends the stream; the reader gets the buffered chunks first, then the end or the error.
    package func finish(_ outcome: HTTPBody.Termination.Outcome) {
        finish(outcome, trailerFields: nil)
    }

    /// Ends the stream as ``finish(_:)`` does; a producer that finishes the body complete hands over the trailer
    /// fields that came after it.
    package func finish(_ outcome: HTTPBody.Termination.Outcome, trailerFields: HTTPFields?) {
        let ending = state.withLock { (state: inout State) -> Ending in
            if state.ending != nil {
                // A reader that leaves chunks unread ends the stream as cancelled.
                guard case .cancelled = outcome, state.termination == nil else {
                    return (nil, .success(nil), nil, [], [])
                }
                _ = state.chunks.removeAll()
                state.bufferedBytes = 0
                state.ending = .cancelled
                return Self.terminate(&state, demand: [])
            }
            if case .cancelled = outcome {
                _ = state.chunks.removeAll()
                state.bufferedBytes = 0
            }
            state.ending = outcome
            if case .finished = outcome { state.trailerFields = trailerFields }
            let demand = state.demandWaiters
            state.demandWaiters = []
            state.onDemand = nil
            guard state.chunks.isEmpty || state.waiter != nil else {
                return (nil, .success(nil), nil, [], demand)
            }
            return Self.terminate(&state, demand: demand)
        }
        Self.deliver(ending)
    }

    /// Hands out what ending the stream took out of the lock: the producers' waits end, the reader gets its
    /// result, and the observers learn the termination.
    package static func deliver(_ ending: Ending) {
        let (waiter, result, termination, observers, producers) = ending
        for producer in producers { producer.resume(throwing: CancellationError()) }
        waiter?.resume(with: result)
        if let termination { for observer in observers { observer(termination) } }
    }

    /// Records the end for the observers, once the reader has had everything it will get.
    package static func terminate(_ state: inout State, demand: [CheckedContinuation<Void, any Error>]) -> Ending {
        var outcome = state.ending ?? .finished
        // The client's mapping applies when the error is handed out: the transfer may fail before it is set.
        if case .failed(let error) = outcome, let transform = state.errorTransform {
            outcome = .failed(transform(error))
        }
        let termination = HTTPBody.Termination(outcome: outcome, byteCount: state.deliveredBytes)
        state.termination = termination
        let observers = state.observers
        state.observers = []
        let waiter = state.waiter
        state.waiter = nil
        let result: Result<Data?, any Error> =
            switch outcome {
            case .finished: .success(nil)
            case .failed(let error): .failure(error)
            case .cancelled: .failure(CancellationError())
            }
        return (waiter, result, termination, observers, demand)
    }

    /// The next chunk, waiting for one; `nil` at the end.
    package func next() async throws -> Data? {
        // What is there already is taken without a continuation or a cancellation handler: a small body is usually
        // complete by the time its reader wakes, and they cost more than the read. A cancelled reader takes the path
        // below, which cancels the body.
        if !Task.isCancelled, let ready = state.withLock({ Self.ready(&$0, limit: limit) }),
            let result = Self.handOut(ready)
        {
            return try result.get()
        }
        var waited = false
        let chunk = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                let step = state.withLock { (state: inout State) -> Step in
                    if let ready = Self.ready(&state, limit: limit) { return ready }
                    if Task.isCancelled { return (.failure(CancellationError()), nil, nil, nil, []) }
                    if state.waiter != nil {
                        let error = HTTPBody.SecondReaderError()
                        return (.failure(error), nil, nil, nil, [])
                    }
                    state.waiter = continuation
                    waited = true
                    return (nil, nil, nil, nil, [])
                }
                if let result = Self.handOut(step) { continuation.resume(with: result) }
            }
        } onCancel: {
            finish(.cancelled)
        }
        // A producer may hand the chunk over before this task has suspended; it released this lock after making it.
        if waited { state.withLock { _ in } }
        return chunk
    }

    /// What the reader gets now, taken under the lock: the next chunk (telling the producer when the buffer has room
    /// again), or the end; `nil` when it must wait.
    private static func ready(_ state: inout State, limit: Int) -> Step? {
        state.unreadLimit = nil
        if let chunk = state.chunks.popFirst() {
            state.bufferedBytes -= chunk.count
            state.deliveredBytes += Int64(chunk.count)
            var demand: (@Sendable () -> Void)?
            if state.full, state.bufferedBytes <= limit / 2 {
                state.full = false
                demand = state.onDemand
                let waiters = state.demandWaiters
                state.demandWaiters = []
                demand = Self.combine(demand, waiters)
            }
            return (.success(chunk), demand, state.onActivity, nil, [])
        }
        if let termination = state.termination {
            return (Self.result(of: termination.outcome), nil, nil, nil, [])
        }
        if state.ending != nil {
            let (_, result, termination, observers, _) = Self.terminate(&state, demand: [])
            return (result, nil, nil, termination, observers)
        }
        return nil
    }

    /// Runs what a read took out of the lock (the end's observers, the activity and the demand calls) and returns
    /// its result, `nil` when the reader waits.
    private static func handOut(_ step: Step) -> Result<Data?, any Error>? {
        let (result, demand, activity, termination, observers) = step
        if let termination { for observer in observers { observer(termination) } }
        activity?()
        demand?()
        return result
    }

    private static func result(of outcome: HTTPBody.Termination.Outcome) -> Result<Data?, any Error> {
        switch outcome {
        case .finished: .success(nil)
        case .failed(let error): .failure(error)
        case .cancelled: .failure(CancellationError())
        }
    }

    package static func combine(_ demand: (@Sendable () -> Void)?, _ waiters: [CheckedContinuation<Void, any Error>])
        -> (@Sendable () -> Void)?
    {
        guard !waiters.isEmpty else { return demand }
        return {
            demand?()
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Calls `observer` when the stream ends (at once if it has).
    package func onTermination(_ observer: @escaping @Sendable (HTTPBody.Termination) -> Void) {
        let done = state.withLock { state -> HTTPBody.Termination? in
            if let termination = state.termination { return termination }
            state.observers.append(observer)
            return nil
        }
        if let done { observer(done) }
    }
}
