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
        var data = Data()
        var response: HTTPURLResponse?
        var redirects = 0
        var credentialsStripped = false
        let origin: Origin
    }

    /// Headers that must not follow a redirect to another origin.
    static let credentialHeaders = ["Authorization", "Cookie", "Proxy-Authorization"]

    private let maximumBodySize: Int
    private let maximumRedirects: Int
    private let calls = LockedBox<[Int: Call]>([:])

    init(maximumBodySize: Int, maximumRedirects: Int) {
        self.maximumBodySize = maximumBodySize
        self.maximumRedirects = maximumRedirects
    }

    /// Adds a call before its task starts.
    func register(_ id: Int, origin: Origin) {
        calls.withLock { $0[id] = Call(origin: origin) }
    }

    /// Attaches the continuation of call `id`. Returns `false`, and resumes the continuation, when the call already
    /// has an outcome (it was cancelled before it started); the task must then not be resumed.
    func attach(_ continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>, to id: Int) -> Bool {
        let early: Outcome? = calls.withLock { table in
            guard let outcome = table[id]?.earlyOutcome else {
                table[id]?.continuation = continuation
                return nil
            }
            table[id] = nil
            return outcome
        }
        guard let early else { return true }
        continuation.resume(with: early)
        return false
    }

    /// Completes call `id` with `outcome` unless it has completed already.
    func finish(_ id: Int, with outcome: Outcome) {
        let continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>? = calls.withLock { table in
            guard let call = table[id] else { return nil }
            guard let continuation = call.continuation else {
                if call.earlyOutcome == nil { table[id]?.earlyOutcome = outcome }
                return nil
            }
            table[id] = nil
            return continuation
        }
        continuation?.resume(with: outcome)
    }

    private func fail(_ task: URLSessionTask, _ code: TransportError.Code, _ message: String) {
        finish(task.taskIdentifier, with: .failure(TransportError(code, message)))
        URLSessionTransport.cancelOffThread(task)
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
        calls.withLock { $0[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let size: Int? = calls.withLock { table in
            table[dataTask.taskIdentifier]?.data.append(data)
            return table[dataTask.taskIdentifier]?.data.count
        }
        if let size, size > maximumBodySize {
            fail(dataTask, .responseTooLarge, "the body grew past the limit of \(maximumBodySize) bytes")
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let target = Origin(request.url)
        let previous = Origin(response.url ?? task.currentRequest?.url)
        enum Decision { case follow(strip: Bool), refuse(TransportError.Code, String) }
        let decision: Decision = calls.withLock { table in
            guard var call = table[task.taskIdentifier] else { return .refuse(.other, "call already finished") }
            call.redirects += 1
            defer { table[task.taskIdentifier] = call }
            if call.redirects > maximumRedirects {
                return .refuse(.tooManyRedirects, "more than \(maximumRedirects) redirects")
            }
            guard target.scheme == "http" || target.scheme == "https", !target.host.isEmpty else {
                return .refuse(.redirectRefused, "a redirect to a non-HTTP URL (scheme \"\(target.scheme)\") was refused")
            }
            if previous.scheme == "https" && target.scheme == "http" {
                return .refuse(.redirectRefused, "a redirect from https to http was refused")
            }
            if target != call.origin { call.credentialsStripped = true }
            return .follow(strip: call.credentialsStripped)
        }
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
        let id = task.taskIdentifier
        if let error {
            finish(id, with: .failure(Self.classify(error)))
            return
        }
        let (data, response) = calls.withLock { ($0[id]?.data ?? Data(), $0[id]?.response) }
        if let response {
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
