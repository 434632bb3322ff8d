import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session delegate of ``URLSessionTransport``: the table of in-flight calls, and the body-size and redirect
/// rules applied as data and redirects arrive. Each call completes exactly once, whichever of completion,
/// cancellation or a broken limit comes first; later events for it are ignored.
final class URLSessionTransportDelegate: NSObject, URLSessionDataDelegate, Sendable {
    typealias Outcome = Result<(Data, HTTPURLResponse), any Error>

    /// Scheme, host and port: what a redirect must keep for credentials to stay.
    struct Origin: Equatable {
        let scheme: String
        let host: String
        let port: Int?

        init(_ url: URL?) {
            scheme = url?.scheme?.lowercased() ?? ""
            host = url?.host?.lowercased() ?? ""
            port = url?.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
        }
    }

    /// One call in flight.
    private struct Call {
        var continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>?
        var earlyOutcome: Outcome?
        var task: URLSessionTask?
        var data = Data()
        var response: HTTPURLResponse?
        var redirects = 0
        var credentialsStripped = false
        let origin: Origin
    }

    /// The calls in flight by call id, and the call id of each started task.
    private struct Table {
        var calls: [UInt64: Call] = [:]
        var callOfTask: [Int: UInt64] = [:]
        var nextID: UInt64 = 0
    }

    /// Headers that must not follow a redirect to another origin.
    static let credentialHeaders = ["Authorization", "Cookie", "Proxy-Authorization"]

    /// The queue that creates, resumes and cancels tasks, off Swift's cooperative threads.
    let queue = DispatchQueue(label: "Networking.URLSessionTransport.tasks")
    private let maximumBodySize: Int
    private let maximumRedirects: Int
    private let table = LockedBox(Table())

    init(maximumBodySize: Int, maximumRedirects: Int) {
        self.maximumBodySize = maximumBodySize
        self.maximumRedirects = maximumRedirects
    }

    /// Adds a call and returns its id.
    func register(origin: Origin) -> UInt64 {
        table.withLock { table in
            table.nextID += 1
            table.calls[table.nextID] = Call(origin: origin)
            return table.nextID
        }
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
            table.callOfTask[task.taskIdentifier] = call
            return true
        }
    }

    /// Completes `call` with `outcome` unless it has completed already, and cancels its task if it is running.
    func finish(_ call: UInt64, with outcome: Outcome) {
        let (continuation, task) = table.withLock {
            table -> (CheckedContinuation<(Data, HTTPURLResponse), any Error>?, URLSessionTask?) in
            guard let entry = table.calls[call] else { return (nil, nil) }
            guard let continuation = entry.continuation else {
                if entry.earlyOutcome == nil { table.calls[call]?.earlyOutcome = outcome }
                return (nil, nil)
            }
            table.calls[call] = nil
            if let task = entry.task { table.callOfTask[task.taskIdentifier] = nil }
            return (continuation, entry.task)
        }
        continuation?.resume(with: outcome)
        if let task, case .failure = outcome {
            queue.async { task.cancel() }
        }
    }

    /// Runs `body` on the call carried by `task`, if it is still in flight.
    private func withCall<T>(of task: URLSessionTask, _ body: (inout Call, UInt64) -> T) -> T? {
        table.withLock { table in
            guard let id = table.callOfTask[task.taskIdentifier], table.calls[id] != nil else { return nil }
            return body(&table.calls[id]!, id)
        }
    }

    private func fail(_ task: URLSessionTask, _ code: TransportError.Code, _ message: String) {
        guard let id = withCall(of: task, { _, id in id }) else { return }
        finish(id, with: .failure(TransportError(code, message)))
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let length = response.expectedContentLength
        if length > maximumBodySize {
            fail(dataTask, .responseTooLarge, "Content-Length \(length) exceeds the limit of \(maximumBodySize) bytes")
            completionHandler(.cancel)
            return
        }
        _ = withCall(of: dataTask) { call, _ in call.response = response as? HTTPURLResponse }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let size: Int? = withCall(of: dataTask) { call, _ in
            call.data.append(data)
            return call.data.count
        }
        if let size, size > maximumBodySize {
            fail(dataTask, .responseTooLarge, "the body grew past the limit of \(maximumBodySize) bytes")
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // Linux turns a host-less Location (`file:`, `javascript:`) into a path on the same host before calling
        // this method, so judge the raw header, resolved against the response URL.
        let location = response.value(forHTTPHeaderField: "Location").flatMap {
            URL(string: $0, relativeTo: response.url)?.absoluteURL
        }
        let target = Origin(location ?? request.url)
        let previous = Origin(response.url ?? task.currentRequest?.url)
        enum Decision {
            case follow(strip: Bool)
            case refuse(TransportError.Code, String)
        }
        let decision: Decision =
            withCall(of: task) { call, _ in
                call.redirects += 1
                if call.redirects > maximumRedirects {
                    return .refuse(.tooManyRedirects, "more than \(maximumRedirects) redirects")
                }
                guard target.scheme == "http" || target.scheme == "https", !target.host.isEmpty else {
                    return .refuse(
                        .redirectRefused, "a redirect to a non-HTTP URL (scheme \"\(target.scheme)\") was refused")
                }
                if previous.scheme == "https" && target.scheme == "http" {
                    return .refuse(.redirectRefused, "a redirect from https to http was refused")
                }
                if target != call.origin { call.credentialsStripped = true }
                return .follow(strip: call.credentialsStripped)
            } ?? .refuse(.other, "the call already finished")
        switch decision {
        case .refuse(let code, let message):
            fail(task, code, message)
            completionHandler(nil)
        case .follow(let strip):
            var next = request
            if strip {
                for header in Self.credentialHeaders { next.setValue(nil, forHTTPHeaderField: header) }
            }
            completionHandler(next)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let (id, data, response) = withCall(of: task, { call, id in (id, call.data, call.response) }) else {
            return
        }
        if let error {
            finish(id, with: .failure(Self.classify(error)))
        } else if let response {
            finish(id, with: .success((data, response)))
        } else {
            finish(id, with: .failure(TransportError(.badServerResponse, "the task ended without an HTTP response")))
        }
    }

    /// Turns what URLSession reported into `CancellationError` or a ``TransportError``.
    static func classify(_ error: any Error) -> any Error {
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else { return TransportError(.other, "\(error)") }
        // Failable on Linux, not on Apple platforms: the optional binding covers both.
        let code: URLError.Code? = URLError.Code(rawValue: nsError.code)
        guard let code else { return TransportError(.other, "\(error)", urlErrorCode: nsError.code) }
        let urlError = URLError(code, userInfo: nsError.userInfo)
        guard var mapped = TransportError(urlError) else { return CancellationError() }
        if let detail = nsError.userInfo[NSLocalizedDescriptionKey] as? String { mapped.message = detail }
        return mapped
    }
}
