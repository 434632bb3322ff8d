import Foundation
import NetworkingCore
import NetworkingHTTP

/// The request body as libcurl reads it, on demand: bytes in memory are copied from where they are (and can be
/// rewound); any other body (a file, a producer) is pulled one chunk ahead by a task, which waits until libcurl has
/// taken the chunk before reading the next. While no chunk is ready, libcurl's sending pauses and the task wakes it.
///
/// A produced body with an announced length keeps back its last byte until the producer has ended with exactly
/// that count: one that ends short, or goes on past it, fails the transfer with the last byte unsent, so no server
/// ever receives a complete request with a body other than the one announced (libcurl would otherwise end the
/// request when the announced count has gone out, and the server would act on it while the producer still had more
/// to say).
final class CurlUpload: Sendable {
    struct State {
        var pending = Data()
        var offset = 0
        var finished = false
        var failure: TransportError?
        /// libcurl asked for bytes when none were ready: its sending is paused until the next chunk.
        var starving = false
        var demand: CheckedContinuation<Void, Never>?
        var stopped = false
        var sent: Int64 = 0
        /// The trailer fields to send after the body: known at once for bytes in memory, once the producer has
        /// ended for a produced body (set before `finished`).
        var trailerFields: HTTPFields?
    }

    private let state: LockedBox<State>
    private let bytes: Data?
    private let pump = LockedBox<Task<Void, Never>?>(nil)
    /// The announced length, or `nil` (sent chunked).
    let length: Int64?
    /// Where to report bytes sent.
    let observer: (any AttemptObserver)?

    init(_ body: HTTPBody, observer: (any AttemptObserver)?) {
        self.bytes = body.data
        self.length = body.length
        self.observer = observer
        state = LockedBox(State(trailerFields: body.data == nil ? nil : body.trailerFieldsToSend))
    }

    /// Whether the body is produced (pulled from a producer, which may wait), not bytes in memory.
    var isProduced: Bool { bytes == nil }

    /// Starts pulling a produced body; `wake` tells the loop that sending may resume. `chunked`: whether the body
    /// goes in chunks, after which trailer fields can follow.
    func start(_ body: HTTPBody, chunked: Bool, wake: @escaping @Sendable () -> Void) {
        guard bytes == nil else { return }
        let length = length
        let task = Task { [state] in
            var count: Int64 = 0
            /// The announced last byte, sent once the producer has ended with the announced count.
            var last: Data?
            /// Hands `chunk` to libcurl and waits until it has taken it all; `false` once the transfer has stopped.
            func offer(_ chunk: Data) async -> Bool {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let wakeNow = state.withLock { state -> Bool in
                        state.pending = chunk
                        state.offset = 0
                        if state.stopped {
                            continuation.resume()
                            return false
                        }
                        state.demand = continuation
                        defer { state.starving = false }
                        return state.starving
                    }
                    if wakeNow { wake() }
                }
                return !state.withLock { $0.stopped }
            }
            do {
                for try await chunk in body where !chunk.isEmpty {
                    count += Int64(chunk.count)
                    if let length, count > length {
                        throw TransportError(.other, HTTPBody.lengthMismatch(produced: nil, announced: length))
                    }
                    var sending = chunk
                    if let length, count == length {
                        last = sending.suffix(1)
                        sending = sending.dropLast()
                    }
                    if !sending.isEmpty, await !offer(sending) { return }
                }
                if let length, count != length {
                    throw TransportError(.other, HTTPBody.lengthMismatch(produced: count, announced: length))
                }
                // Its trailer fields, if any (those set on it, or those its producer finished it with), before the
                // end reaches libcurl.
                let trailerFields = body.trailerFieldsToSend
                if trailerFields != nil, !chunked {
                    // A body with a length goes unchunked: nothing can follow it. Its last byte stays unsent, so the
                    // server never sees a complete request without them.
                    throw TransportError(
                        .other,
                        "the request body finished with trailer fields, but it announced its length, and trailers "
                            + "follow only a chunked body: make its length unknown; the request was not completed")
                }
                state.withLock { $0.trailerFields = trailerFields }
                if let last, await !offer(last) { return }
            } catch {
                let failure =
                    error as? TransportError
                    ?? TransportError(.other, "the request body failed: \(error); sending stopped")
                state.withLock { $0.failure = failure }
            }
            let wakeNow = state.withLock { state -> Bool in
                state.finished = true
                defer { state.starving = false }
                return state.starving
            }
            if wakeNow { wake() }
        }
        pump.withLock { $0 = task }
    }

    /// Copies up to `into.count` bytes for libcurl (loop thread). Returns the count, 0 at the end, or libcurl's
    /// pause or abort value.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        if let bytes {
            let offset = state.withLock { $0.offset }
            let count = min(buffer.count, bytes.count - offset)
            guard count > 0 else { return 0 }
            bytes.withUnsafeBytes { source in
                buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
            }
            let sent = state.withLock { state -> Int64 in
                state.offset += count
                state.sent += Int64(count)
                return state.sent
            }
            observer?.bytesSent(sent, of: length)
            return count
        }
        let (count, demand, sent): (Int, CheckedContinuation<Void, Never>?, Int64) = state.withLock { state in
            let available = state.pending.count - state.offset
            guard available > 0 else {
                if state.failure != nil { return (CurlOption.readFunctionAbort, nil, 0) }
                if state.finished { return (0, nil, 0) }
                state.starving = true
                return (CurlOption.readFunctionPause, nil, 0)
            }
            let count = min(buffer.count, available)
            state.pending.withUnsafeBytes { source in
                buffer.baseAddress!.copyMemory(from: source.baseAddress! + state.offset, byteCount: count)
            }
            state.offset += count
            state.sent += Int64(count)
            guard state.offset == state.pending.count else { return (count, nil, state.sent) }
            state.pending = Data()
            state.offset = 0
            defer { state.demand = nil }
            return (count, state.demand, state.sent)
        }
        demand?.resume()
        if sent > 0 { observer?.bytesSent(sent, of: length) }
        return count
    }

    /// Rewinds to `offset` (libcurl re-sending on a new connection): possible for bytes in memory only.
    func seek(to offset: Int64) -> Bool {
        guard let bytes, offset >= 0, offset <= bytes.count else { return false }
        state.withLock {
            $0.offset = Int(offset)
            $0.sent = offset
        }
        return true
    }

    /// Why the body could not be sent, if it failed.
    var failure: TransportError? { state.withLock { $0.failure } }

    /// The trailer fields to send after the body, once known.
    var trailerFields: HTTPFields? { state.withLock { $0.trailerFields } }

    /// Records why the body cannot be sent (loop thread, as libcurl is told to abort).
    func fail(_ failure: TransportError) {
        state.withLock { $0.failure = failure }
    }

    /// Stops pulling: the transfer has ended.
    func stop() {
        let demand = state.withLock { state in
            state.stopped = true
            state.pending = Data()
            state.offset = 0
            defer { state.demand = nil }
            return state.demand
        }
        demand?.resume()
        pump.withLock { $0?.cancel() }
    }
}
