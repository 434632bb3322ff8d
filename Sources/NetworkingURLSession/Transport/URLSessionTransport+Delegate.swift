import Foundation
import NetworkingHTTP
import NetworkingCore
import NetworkingTLS

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session delegate of ``URLSessionTransport``: the table of calls in flight. Each call hands its head to its
/// caller once, with the body as an `HTTPBody` fed as data arrives; whichever of completion, cancellation or a
/// failure comes first decides, and later events for it are ignored.
final class URLSessionTransportDelegate: NSObject, URLSessionDataDelegate, Sendable {
    typealias Head = (HTTPResponse, HTTPBody)

    /// One call in flight.
    struct Call {
        /// The caller waiting for the head; `nil` once it has it (or before it starts waiting).
        var continuation: CheckedContinuation<Head, any Error>?
        /// An outcome that came before the caller started waiting (a cancellation).
        var earlyOutcome: Result<Head, any Error>?
        var task: URLSessionTask?
        var response: HTTPURLResponse?
        var challengeRejected = false
        /// Set when `ServerTrust` refused the server (Apple platforms): the cancelled task is then a TLS failure.
        var trustRefused = false
        /// The body's producer side, once the head went to the caller.
        var feed: HTTPBody.Continuation?
        /// Whether the task is suspended because the reader's buffer is full (Apple platforms).
        var paused = false
        /// Who observes this attempt, if anyone (`TransferObservation/attempt`).
        let observer: (any AttemptObserver)?
        /// The method sent, to know a response that has no body.
        let method: HTTPMethod
    }

    struct Table {
        var calls: [UInt64: Call] = [:]
        /// Keyed by the task object: task identifiers are only unique within one session, and the transport has two.
        var callOfTask: [ObjectIdentifier: UInt64] = [:]
        var nextID: UInt64 = 0
        /// Tasks whose redirect decision is being made, and cancels held back until it is answered: Foundation traps
        /// when a task is cancelled between asking for a redirect decision and receiving it.
        var redirectsInProgress: Set<ObjectIdentifier> = []
        var deferredCancels: [ObjectIdentifier: URLSessionTask] = [:]
        /// Blocks submitted to ``queue`` that have not started yet.
        var queuedBlocks = 0
    }

    /// The queue that creates, resumes and cancels tasks, off Swift's cooperative threads.
    let queue = DispatchQueue(label: "Networking.URLSessionTransport.tasks")
    let serverTrust: ServerTrust
    let table = LockedBox(Table())

    init(serverTrust: ServerTrust) {
        self.serverTrust = serverTrust
    }

    /// The Foundation request: its URL, method, every header field in one assignment (repeated fields joined, names
    /// as written), `Connection: close` when asked, and a body in memory. `nil` when the target cannot form a URL.
    static func urlRequest(for request: HTTPRequest, closesConnection: Bool) -> URLRequest? {
        guard let url = request.url else { return nil }
        // The client keeps every time limit; Foundation's own timer (an idle timer on Linux) is set far away.
        var urlRequest = URLRequest(url: url, timeoutInterval: URLSessionTransport.foundationTimeout)
        if request.method != .get { urlRequest.httpMethod = request.method.rawValue }
        var fields = request.headerFields.joinedByName()
        if closesConnection { fields["Connection"] = "close" }
        urlRequest.allHTTPHeaderFields = fields
        if let body = request.body.data, !body.isEmpty { urlRequest.httpBody = body }
        return urlRequest
    }

    /// Adds a call and returns its id.
    func register(method: HTTPMethod, observer: (any AttemptObserver)?) -> UInt64 {
        table.withLock { table in
            table.nextID += 1
            table.calls[table.nextID] = Call(observer: observer, method: method)
            return table.nextID
        }
    }

    /// Attaches the caller's continuation. Returns `false`, and resumes it, when the call already has an outcome.
    func attach(_ continuation: CheckedContinuation<Head, any Error>, to call: UInt64) -> Bool {
        let early: Result<Head, any Error>? = table.withLock { table in
            guard let outcome = table.calls[call]?.earlyOutcome else {
                table.calls[call]?.continuation = continuation
                return nil
            }
            table.calls[call] = nil
            return outcome
        }
        guard let early else { return true }
        continuation.resume(with: early)
        return false
    }

    /// Runs `block` on ``queue``, which creates, resumes and cancels tasks in order. When `call` is the only call in
    /// flight and nothing waits on the queue, it runs through `sync`, on this thread: nothing can make it wait, and
    /// the thread hop is spared. Otherwise it goes `async`, so a busy queue never holds the caller's thread.
    func onQueue(startingAlone call: UInt64? = nil, _ block: @escaping @Sendable () -> Void) {
        let inline = table.withLock { table in
            let alone = call != nil && table.calls.count <= 1 && table.queuedBlocks == 0
            table.queuedBlocks += 1
            return alone
        }
        let counted: @Sendable () -> Void = { [self] in
            table.withLock { $0.queuedBlocks -= 1 }
            block()
        }
        if inline { queue.sync(execute: counted) } else { queue.async(execute: counted) }
    }

    /// Records that `task` carries `call`. Returns `false` when the call has already finished (cancelled), in which
    /// case the task must not be resumed.
    func bind(_ task: URLSessionTask, to call: UInt64) -> Bool {
        table.withLock { table in
            guard table.calls[call] != nil else { return false }
            table.calls[call]?.task = task
            table.callOfTask[ObjectIdentifier(task)] = call
            return true
        }
    }

    /// Ends `call` with `outcome` unless it has ended already: before the head, the caller gets the outcome; after
    /// it, the body ends (`nil` error: complete). A failure cancels the task if it is running.
    func finish(_ call: UInt64, failure: (any Error)?) {
        let (continuation, feed, task) = table.withLock {
            table -> (CheckedContinuation<Head, any Error>?, HTTPBody.Continuation?, URLSessionTask?) in
            guard let entry = table.calls[call] else { return (nil, nil, nil) }
            if entry.continuation == nil && entry.feed == nil {
                // The caller has not started waiting yet: keep the outcome for it.
                if entry.earlyOutcome == nil {
                    table.calls[call]?.earlyOutcome = .failure(failure ?? CancellationError())
                }
                return (nil, nil, nil)
            }
            table.calls[call] = nil
            guard let task = entry.task else { return (entry.continuation, entry.feed, nil) }
            let key = ObjectIdentifier(task)
            table.callOfTask[key] = nil
            guard failure != nil else { return (entry.continuation, entry.feed, nil) }
            if table.redirectsInProgress.contains(key) {
                table.deferredCancels[key] = task
                return (entry.continuation, entry.feed, nil)
            }
            return (entry.continuation, entry.feed, task)
        }
        if let continuation {
            continuation.resume(
                throwing: failure ?? TransportError(.badServerResponse, "the task ended without a head"))
        }
        feed?.finish(throwing: failure)
        if let task { onQueue { task.cancel() } }
    }

    /// Hands the head to the caller of the call carried by `task`, with a body fed from now on.
    func deliverHead(_ head: HTTPURLResponse, of task: URLSessionTask, session: URLSession) {
        let length = head.expectedContentLength >= 0 ? head.expectedContentLength : nil
        let id = table.withLock { $0.callOfTask[ObjectIdentifier(task)] }
        let (body, feed) = HTTPBody.makeStream(length: length) { [weak self] in
            if let id { self?.resume(id) }
        }
        feed.onTermination { [weak self] termination in
            // Ended by the reader or the client (cancelled, timed out): stop the transfer, close the connection.
            if case .finished = termination.outcome { return }
            if let id { self?.finish(id, failure: CancellationError()) }
        }
        let continuation = withCall(of: task) { call, _ -> CheckedContinuation<Head, any Error>? in
            // Only the first final head answers; a second one (never expected) changes nothing.
            guard call.feed == nil else { return nil }
            call.feed = feed
            defer { call.continuation = nil }
            return call.continuation
        }
        continuation??.resume(returning: (HTTPResponse(head), body))
    }

    /// Runs `body` on the call carried by `task`, if it is still in flight.
    func withCall<T>(of task: URLSessionTask, _ body: (inout Call, UInt64) -> T) -> T? {
        table.withLock { table in
            guard let id = table.callOfTask[ObjectIdentifier(task)], table.calls[id] != nil else { return nil }
            return body(&table.calls[id]!, id)
        }
    }

    func fail(_ task: URLSessionTask, _ code: TransportError.Code, _ message: String) {
        guard let id = withCall(of: task, { _, id in id }) else { return }
        finish(id, failure: TransportError(code, message))
    }

    /// Marks the start of a redirect decision for `task`: cancels wait until ``endRedirectDecision(_:)``.
    func beginRedirectDecision(_ task: URLSessionTask) {
        table.withLock { _ = $0.redirectsInProgress.insert(ObjectIdentifier(task)) }
    }

    /// Marks the end of a redirect decision (after its completion handler was called); runs a held-back cancel.
    func endRedirectDecision(_ task: URLSessionTask) {
        let deferred = table.withLock { table -> URLSessionTask? in
            table.redirectsInProgress.remove(ObjectIdentifier(task))
            return table.deferredCancels.removeValue(forKey: ObjectIdentifier(task))
        }
        if let deferred { onQueue { deferred.cancel() } }
    }
}
