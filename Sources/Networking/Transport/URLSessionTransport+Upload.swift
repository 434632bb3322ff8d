import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Request bodies beyond memory: the task of each hop, and upload progress.
extension URLSessionTransportDelegate {
    /// Why the transport cannot send `request`'s body, checked before any I/O; `nil` when it can.
    static func bodyProblem(in request: HTTPRequest) -> String? {
        guard case .file(let url) = request.body else { return nil }
        return BodyFile.problem(url)
    }

    /// A new task for one attempt or one redirect hop of `hop`, sent as `urlRequest`: a file body gets an upload
    /// task that opens the file afresh (so every attempt and every 307/308 hop sends it whole, read from disk in
    /// chunks), anything else a data task.
    static func makeTask(for hop: HTTPRequest, _ urlRequest: URLRequest, on session: URLSession) -> URLSessionTask {
        switch hop.body {
        case .file(let url):
            return session.uploadTask(with: urlRequest, fromFile: url)
        case .none, .data:
            return session.dataTask(with: urlRequest)
        }
    }

    /// The task for the current hop of `call`, or `nil` if the call already ended.
    func makeTask(for call: UInt64, _ urlRequest: URLRequest, on session: URLSession) -> URLSessionTask? {
        guard let hop = table.withLock({ $0.calls[call]?.hop }) else { return nil }
        return Self.makeTask(for: hop, urlRequest, on: session)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        guard let reporter = withCall(of: task, { call, _ in call.hop.transferProgress }) ?? nil else { return }
        reporter.report(
            completedBytes: totalBytesSent, expectedBytes: totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : nil)
    }
}
