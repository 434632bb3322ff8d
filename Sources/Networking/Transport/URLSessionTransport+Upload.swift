import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Request bodies beyond memory: the task of each hop, and upload progress.
extension URLSessionTransportDelegate {
    /// Why the transport cannot send `request`'s body, checked before any I/O; `nil` when it can.
    static func bodyProblem(in request: HTTPRequest) -> String? {
        switch request.body {
        case .file(let url): BodyFile.problem(url)
        case .multipart(let form): form.problem
        case .stream(let stream):
            stream.isConsumed ? "the body stream was consumed by an earlier sending and cannot be restarted" : nil
        case .none, .data: nil
        }
    }

    /// `request` with a body the tasks can send: a multipart form becomes its bytes in memory when it has no file
    /// part, else a temporary file written now off the cooperative threads (returned, for the caller to remove
    /// once the call ends), and gets its `Content-Type` if the request has none.
    static func preparingBody(of request: HTTPRequest) async throws -> (HTTPRequest, spooled: URL?) {
        if case .stream(let stream) = request.body {
            let file = try await StreamSpool.write(stream)
            var prepared = request
            prepared.body = .file(file)
            return (prepared, file)
        }
        guard case .multipart(let form) = request.body else { return (request, nil) }
        var prepared = request
        if !prepared.headerFields.contains(.contentType) { prepared.headerFields[.contentType] = form.contentType }
        guard MultipartSpool.hasFiles(form) else {
            prepared.body = .data(try form.encodedData())
            return (prepared, nil)
        }
        // Copying files is blocking I/O: it runs on a global queue, not on a thread Swift's executors share.
        let file = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try MultipartSpool.write(form) }) }
        }
        prepared.body = .file(file)
        return (prepared, file)
    }

    /// A new task for one attempt or one redirect hop of `hop`, sent as `urlRequest`: a file body gets an upload
    /// task that opens the file afresh (so every attempt and every 307/308 hop sends it whole, read from disk in
    /// chunks), anything else a data task.
    static func makeTask(for hop: HTTPRequest, _ urlRequest: URLRequest, on session: URLSession) -> URLSessionTask {
        switch hop.body {
        case .file(let url):
            return session.uploadTask(with: urlRequest, fromFile: url)
        case .none, .data, .multipart, .stream:
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
            completedBytes: totalBytesSent, expectedBytes: totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : nil
        )
    }
}
