import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a streamed call's body goes, kept in its ``URLSessionTransportDelegate/Call``.
struct StreamFeed: Sendable {
    let continuation: ResponseBodyStream.Continuation
    /// Set once the head went to the caller: from then on the body goes to the stream, not to the call's data.
    let delivered = LockedBox(false)
    /// Whether the task is suspended because the reader's buffer is full.
    var paused = false

    var isDelivered: Bool { delivered.withLock { $0 } }

    /// Ends the stream with the call's outcome.
    func end(with outcome: URLSessionTransportDelegate.Outcome) {
        switch outcome {
        case .success: continuation.finish()
        case .failure(let error): continuation.finish(throwing: error)
        }
    }
}

/// Streamed bodies: ``URLSessionTransport`` answers ``StreamingHTTPTransport/stream(_:)`` with the head as soon as
/// it arrives (a redirect it follows is not the answer), then feeds the body into a bounded ``ResponseBodyStream``.
///
/// - **Backpressure**: on Apple platforms, a full buffer suspends the data task, which stops reading the socket
///   until the reader drains half of it. swift-corelibs-foundation (Linux) implements `suspend()` by removing the
///   transfer from libcurl's multi handle, which ends it (a resumed task starts over), and it delivers data to the
///   delegate without flow control, so on Linux the buffer is a soft bound: a reader slower than the network lets
///   it grow: the delegate must not wait for a reader, since the network side of every session is one shared
///   queue. A download has no reader to wait for: the client writes each chunk to its file within the
///   delegate's call (``ResponseBodyStream/Continuation/yield(_:)``), and the delegate queue holds the network
///   side back while 64 reads are queued (`URLSessionTransportDelegateQueue`, at most 20 ms at a time), so a
///   download goes at the disk's pace in constant memory on Linux too.
/// - **Cancellation**: a stream that ends early (cancelled, dropped, timed out by the client) cancels the task,
///   which closes the connection.
/// - No body size limit and no deadline apply here: the client keeps an idle limit and the call's deadline.
extension URLSessionTransport: StreamingHTTPTransport {
    /// The time limit given to Foundation for a streamed call: a day, since the client enforces the idle limit
    /// and a reader may hold a suspended task for long.
    static let streamFoundationTimeout: TimeInterval = 86_400

    /// Sends `request` and returns the head once it arrives, with the body streaming behind it.
    ///
    /// - Parameter request: The request to send.
    /// - Returns: The head and the body stream, for any status code.
    /// - Throws: `CancellationError` when the calling task is cancelled before the head; ``TransportError``.
    public func stream(_ request: HTTPRequest) async throws -> (HTTPResponse, ResponseBodyStream) {
        let calls = self.calls
        let callID = LockedBox<UInt64?>(nil)
        let (stream, continuation) = ResponseBodyStream.makeStream(onDemand: {
            if let id = callID.withLock({ $0 }) { calls.resumeStream(id) }
        })
        let feed = StreamFeed(continuation: continuation)
        continuation.onTermination { _ in
            // Ended by the reader or the client (cancelled, timed out): stop the transfer, close the connection.
            if let id = callID.withLock({ $0 }) { calls.finish(id, with: .failure(CancellationError())) }
        }
        let (response, data) = try await send(
            request, limit: nil, stream: feed,
            registered: { id in
                callID.withLock { $0 = id }
            })
        if !feed.isDelivered {
            // The whole answer came before the head was handed over (a refused redirect's 3xx, a rejected challenge).
            continuation.yield(data)
            continuation.finish()
        }
        return (response, stream)
    }
}

extension URLSessionTransportDelegate {
    /// Hands the head of a streamed call to its caller, unless it is a redirect this transport will follow.
    func deliverStreamHead(_ head: HTTPURLResponse, of task: URLSessionTask) {
        let continuation = table.withLock { table -> CheckedContinuation<(Data, HTTPURLResponse), any Error>? in
            guard let id = table.callOfTask[ObjectIdentifier(task)], var call = table.calls[id],
                let feed = call.stream, !feed.isDelivered, let continuation = call.continuation
            else { return nil }
            if RedirectState.followedStatuses.contains(head.statusCode), call.redirects.follows,
                head.value(forHTTPHeaderField: "Location") != nil
            {
                return nil
            }
            feed.delivered.withLock { $0 = true }
            call.continuation = nil
            table.calls[id] = call
            return continuation
        }
        continuation?.resume(returning: (Data(), head))
    }

    /// Puts `data` into the stream of the call carried by `task` once its head is delivered; `false` when the call
    /// does not stream (or not yet), so the data goes to the call as usual.
    func feedStream(_ data: Data, of task: URLSessionTask) -> Bool {
        guard let feed = withCall(of: task, { call, _ in call.stream }), let feed, feed.isDelivered else {
            return false
        }
        if !feed.continuation.yield(data) { pause(task) }
        return true
    }

    /// Suspends `task` while its reader catches up (Apple platforms; see ``URLSessionTransport``).
    private func pause(_ task: URLSessionTask) {
        #if !canImport(FoundationNetworking)
            let pausing = withCall(of: task) { call, _ in
                guard call.stream?.paused == false else { return false }
                call.stream?.paused = true
                return true
            }
            guard pausing == true else { return }
            // The reader may have drained the buffer since it refused the chunk, its call to resume finding nothing
            // paused yet: suspend only if the buffer is still full, on the queue that also runs every resume.
            onQueue { [self] in
                let stillFull = withCall(of: task) { call, _ -> Bool in
                    guard call.stream?.paused == true else { return false }
                    if call.stream?.continuation.buffer.isFull == true { return true }
                    call.stream?.paused = false
                    return false
                }
                if stillFull == true { task.suspend() }
            }
        #endif
    }

    /// Resumes the task of a streamed call that its reader had paused.
    func resumeStream(_ id: UInt64) {
        let task = table.withLock { table -> URLSessionTask? in
            guard table.calls[id]?.stream?.paused == true else { return nil }
            table.calls[id]?.stream?.paused = false
            return table.calls[id]?.task
        }
        if let task { onQueue { task.resume() } }
    }

    /// Removes a streamed call whose head was delivered; returns the task to cancel when it failed.
    static func removeStreamed(_ id: UInt64, _ entry: Call, _ outcome: Outcome, from table: inout Table) -> (
        CheckedContinuation<(Data, HTTPURLResponse), any Error>?, URLSessionTask?
    ) {
        table.calls[id] = nil
        guard let task = entry.task else { return (nil, nil) }
        table.callOfTask[ObjectIdentifier(task)] = nil
        guard case .failure = outcome else { return (nil, nil) }
        return (nil, task)
    }
}
