import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session delegate of ``URLSessionTransport``: the table of in-flight calls, and the body-size and redirect
/// rules applied as data and redirects arrive. Each call completes exactly once, whichever of completion,
/// cancellation or a broken limit comes first; later events for it are ignored.
final class URLSessionTransportDelegate: NSObject, URLSessionDataDelegate, Sendable {
    typealias Outcome = Result<(Data, HTTPURLResponse), any Error>

    /// One call in flight.
    struct Call {
        var continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>?
        var earlyOutcome: Outcome?
        var task: URLSessionTask?
        var data = Data()
        var response: HTTPURLResponse?
        var challengeRejected = false
        /// Set when ``ServerTrust`` refused the server (Apple platforms): the cancelled task is then a TLS failure.
        var trustRefused = false
        let deadline: DispatchTime?
        /// The request of the hop being sent: every redirect is followed by this transport, from it.
        var hop: HTTPRequest
        /// The redirect rules, with the count and origin of this call.
        var redirects: RedirectState
        /// The time limit Foundation is given for each hop (the client keeps the real one).
        let timeoutInterval: TimeInterval
        /// Whether each hop goes out with `Connection: close` (see ``URLSessionTransport/Configuration``).
        let closesConnection: Bool
        /// Where the body goes when the call streams it (see `URLSessionTransport+Streaming.swift`).
        var stream: StreamFeed?
    }

    /// The calls in flight by call id, the call id of each started task, and the one timer that ends calls whose
    /// deadline passed: it is set for the earliest deadline and moved only when an earlier one arrives.
    struct Table {
        var calls: [UInt64: Call] = [:]
        /// Keyed by the task object: task identifiers are only unique within one session, and the transport has two.
        var callOfTask: [ObjectIdentifier: UInt64] = [:]
        var nextID: UInt64 = 0
        var timer: (any DispatchSourceTimer)?
        var timerFiresAt: DispatchTime?
        /// Tasks whose redirect decision is being made, and cancels held back until it is answered: Foundation traps
        /// when a task is cancelled between asking for a redirect decision and receiving it.
        var redirectsInProgress: Set<ObjectIdentifier> = []
        var deferredCancels: [ObjectIdentifier: URLSessionTask] = [:]
        /// Blocks submitted to ``queue`` that have not started yet.
        var queuedBlocks = 0
    }

    /// The queue that creates, resumes and cancels tasks, off Swift's cooperative threads.
    let queue = DispatchQueue(label: "Networking.URLSessionTransport.tasks")
    /// The queue of the deadline timer: apart from `queue`, whose calls into Foundation can block under load.
    private let timerQueue = DispatchQueue(label: "Networking.URLSessionTransport.deadlines")
    let maximumBodySize: Int
    let maximumRedirects: Int
    let serverTrust: ServerTrust
    /// Whether redirects are followed when the request does not say.
    let followsRedirects: Bool
    let table = LockedBox(Table())

    init(maximumBodySize: Int, maximumRedirects: Int, serverTrust: ServerTrust, followsRedirects: Bool) {
        self.maximumBodySize = maximumBodySize
        self.maximumRedirects = maximumRedirects
        self.serverTrust = serverTrust
        self.followsRedirects = followsRedirects
    }

    /// The Foundation request for one hop: its URL, method, every header field in one assignment (repeated fields
    /// joined, names as written), `Connection: close` when asked, and the body. `nil` when the target cannot form a
    /// URL.
    static func urlRequest(for request: HTTPRequest, timeoutInterval: TimeInterval, closesConnection: Bool)
        -> URLRequest?
    {
        guard let url = request.url else { return nil }
        var urlRequest = URLRequest(url: url, timeoutInterval: timeoutInterval)
        if request.method != .get { urlRequest.httpMethod = request.method.rawValue }
        var fields = request.headerFields.joinedByName()
        if closesConnection { fields["Connection"] = "close" }
        urlRequest.allHTTPHeaderFields = fields
        if let body = request.body.data { urlRequest.httpBody = body }
        return urlRequest
    }

    /// Adds a call and returns its id. A call with a deadline ends with ``TimeLimitExceeded`` when it passes.
    func register(
        _ request: HTTPRequest, timeoutInterval: TimeInterval, closesConnection: Bool, deadline: DispatchTime?,
        stream: StreamFeed? = nil, bodyIsReplayable: Bool = true
    ) -> UInt64 {
        var call = Call(
            deadline: deadline, hop: request,
            redirects: RedirectState(
                for: request, limit: maximumRedirects, follows: request.followsRedirects ?? followsRedirects,
                bodyIsReplayable: bodyIsReplayable),
            timeoutInterval: timeoutInterval, closesConnection: closesConnection)
        call.stream = stream
        return table.withLock { table in
            table.nextID += 1
            table.calls[table.nextID] = call
            if let deadline { armTimer(&table, for: deadline) }
            return table.nextID
        }
    }

    /// Makes the timer fire by `deadline`, creating it on first use. Called with the table locked, so concurrent
    /// calls cannot leave it set for the later of two deadlines.
    private func armTimer(_ table: inout Table, for deadline: DispatchTime) {
        if let firesAt = table.timerFiresAt, firesAt <= deadline { return }
        if table.timer == nil {
            let timer = DispatchSource.makeTimerSource(queue: timerQueue)
            timer.setEventHandler { [weak self] in self?.expireCalls() }
            timer.resume()
            table.timer = timer
        }
        table.timer?.schedule(deadline: deadline, leeway: .milliseconds(1))
        table.timerFiresAt = deadline
    }

    /// Ends every call whose deadline has passed and sets the timer for the next one.
    private func expireCalls() {
        let now = DispatchTime.now()
        let expired: [UInt64] = table.withLock { table in
            table.timerFiresAt = nil
            var expired: [UInt64] = []
            var next: DispatchTime?
            for (id, call) in table.calls {
                guard let deadline = call.deadline else { continue }
                if deadline <= now {
                    expired.append(id)
                } else if next.map({ deadline < $0 }) ?? true {
                    next = deadline
                }
            }
            if let next { armTimer(&table, for: next) }
            return expired
        }
        for id in expired { finish(id, with: .failure(TimeLimitExceeded())) }
    }

    /// Attaches the continuation of `call`. Returns `false`, and resumes the continuation, when the call already
    /// has an outcome (it was cancelled before it started).
    func attach(_ continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>, to call: UInt64) -> Bool {
        let early: Outcome? = table.withLock { table in
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

    /// Whether `call` still waits for its outcome.
    func isPending(_ call: UInt64) -> Bool {
        table.withLock { $0.calls[call] != nil }
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

    /// Completes `call` with `outcome` unless it has completed already, and cancels its task if it is running.
    func finish(_ call: UInt64, with outcome: Outcome) {
        var delivered: StreamFeed?
        let (continuation, task) = table.withLock {
            table -> (CheckedContinuation<(Data, HTTPURLResponse), any Error>?, URLSessionTask?) in
            guard let entry = table.calls[call] else { return (nil, nil) }
            if let feed = entry.stream, feed.isDelivered {
                delivered = feed
                return Self.removeStreamed(call, entry, outcome, from: &table)
            }
            guard let continuation = entry.continuation else {
                if entry.earlyOutcome == nil { table.calls[call]?.earlyOutcome = outcome }
                return (nil, nil)
            }
            table.calls[call] = nil
            guard let task = entry.task else { return (continuation, nil) }
            let key = ObjectIdentifier(task)
            table.callOfTask[key] = nil
            guard case .failure = outcome else { return (continuation, nil) }
            if table.redirectsInProgress.contains(key) {
                table.deferredCancels[key] = task
                return (continuation, nil)
            }
            return (continuation, task)
        }
        continuation?.resume(with: outcome)
        delivered?.end(with: outcome)
        if let task {
            onQueue { task.cancel() }
        }
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

    /// Runs `body` on the call carried by `task`, if it is still in flight.
    func withCall<T>(of task: URLSessionTask, _ body: (inout Call, UInt64) -> T) -> T? {
        table.withLock { table in
            guard let id = table.callOfTask[ObjectIdentifier(task)], table.calls[id] != nil else { return nil }
            return body(&table.calls[id]!, id)
        }
    }

    func fail(_ task: URLSessionTask, _ code: TransportError.Code, _ message: String) {
        guard let id = withCall(of: task, { _, id in id }) else { return }
        finish(id, with: .failure(TransportError(code, message)))
    }
}
