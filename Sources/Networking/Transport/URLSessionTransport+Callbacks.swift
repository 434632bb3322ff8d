import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session callbacks of ``URLSessionTransportDelegate``: body-size limits as data arrives, the redirect rules,
/// HTTP authentication challenges, and completion.
extension URLSessionTransportDelegate {
    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        // RFC 9112 §6.3: differing Content-Length values make the framing unrecoverable. libcurl frames by the
        // last one, which can cut the body short while the call looks successful.
        // Foundation joins repeated fields with commas, so a single length (the common case) has none.
        if let lengths = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Length"),
            lengths.utf8.contains(UInt8(ascii: ",")),
            Set(lengths.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }).count > 1
        {
            fail(dataTask, .other, "the response has conflicting Content-Length values (\(lengths))")
            completionHandler(.cancel)
            return
        }
        let head = response as? HTTPURLResponse
        // A HEAD response, a 204 and a 304 have no body whatever their Content-Length says (RFC 9110 §8.6): the
        // announced size of the resource is no reason to refuse them.
        let found: (HTTPMethod, AttemptMeasurement?, Bool)? = withCall(of: dataTask) { call, _ in
            call.response = head
            return (call.hop.method, call.hop.attemptMeasurement, call.stream != nil)
        }
        found?.1?.responseHeadArrived()
        let (method, streams) = (found?.0, found?.2 == true)
        let bodiless = method == .head || head.map { [204, 304].contains($0.statusCode) } == true
        let length = response.expectedContentLength
        if streams, let head {
            deliverStreamHead(head, of: dataTask)
        } else if !bodiless && length > maximumBodySize {
            fail(dataTask, .responseTooLarge, "Content-Length \(length) exceeds the limit of \(maximumBodySize) bytes")
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if feedStream(data, of: dataTask) { return }
        let size: Int? = withCall(of: dataTask) { call, _ in
            call.data.append(data)
            call.hop.attemptMeasurement?.addBytesReceived(Int64(data.count))
            return call.data.count
        }
        if let size, size > maximumBodySize {
            fail(dataTask, .responseTooLarge, "the body grew past the limit of \(maximumBodySize) bytes")
        }
    }

    /// Every redirect is declined here and followed, or refused, once the task ends (``RedirectState`` decides):
    /// Linux drops the body of every redirected request, keeps credentials across origins, and turns a host-less
    /// `Location` (`file:`, `javascript:`) into a path on the same host before asking.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        beginRedirectDecision(task)
        defer { endRedirectDecision(task) }
        // The call already ended (cancelled, or out of time) and its task is being cancelled: answering now could
        // reach Foundation after the cancel, which it traps on. The task ends as cancelled without an answer.
        guard withCall(of: task, { _, _ in true }) != nil else { return }
        completionHandler(nil)
    }

    /// HTTP authentication (401 with `WWW-Authenticate`) is left to behaviors: the challenge is rejected so the 401
    /// comes back as a response. Linux's default handling waits forever when it has no credential
    /// (swift-corelibs-foundation #5456). On Apple platforms a server-trust challenge is judged by ``ServerTrust``
    /// when the configuration sets one; other TLS challenges keep the default handling.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(Security)
            if let verdict = evaluateServerTrust(challenge, task: task) {
                completionHandler(verdict.disposition, verdict.credential)
                return
            }
        #endif
        // Only a challenge that came with a 401 or 407 response is an HTTP authentication challenge.
        guard let failure = challenge.failureResponse as? HTTPURLResponse, [401, 407].contains(failure.statusCode)
        else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        _ = withCall(of: task) { call, _ in
            call.challengeRejected = true
            if call.response == nil { call.response = failure }
        }
        completionHandler(.rejectProtectionSpace, nil)
    }

    #if !canImport(FoundationNetworking)
        /// Notes connection reuse for ``MetricsBehavior``. Apple platforms deliver task metrics just before the task
        /// completes; Linux never delivers them.
        func urlSession(
            _ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics
        ) {
            guard let reused = metrics.transactionMetrics.last?.isReusedConnection else { return }
            let measurement = withCall(of: task) { call, _ in call.hop.attemptMeasurement } ?? nil
            measurement?.noteConnectionReused(reused)
        }
    #endif

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard
            let (id, data, response, rejected, trustRefused, measurement) = withCall(
                of: task,
                { call, id in
                    (
                        id, call.data, call.response, call.challengeRejected, call.trustRefused,
                        call.hop.attemptMeasurement
                    )
                })
        else {
            return
        }
        measurement?.addBytesSent(task.countOfBytesSent)
        if trustRefused {
            let message = "the server's certificate chain does not satisfy the transport's ServerTrust"
            finish(
                id,
                with: .failure(TransportError(.secureConnectionFailed, message, secureConnectionFailure: .certificate)))
            return
        }
        // After a rejected challenge Linux ends the task as cancelled, having delivered the 401: that is the answer.
        if let error, rejected, let response, (error as NSError).code == NSURLErrorCancelled {
            finish(id, with: .success((data, response)))
            return
        }
        if let error {
            finish(id, with: .failure(Self.classify(error)))
            return
        }
        // Linux never reports the head of a 3xx it did not follow: the task still has it.
        guard let response = response ?? task.response as? HTTPURLResponse else {
            finish(id, with: .failure(TransportError(.badServerResponse, "the task ended without an HTTP response")))
            return
        }
        switch nextHop(of: task, after: response) {
        case .follow(let request):
            restart(id, with: request, on: session)
        case .refuse(let code, let message):
            finish(id, with: .failure(TransportError(code, message)))
        case .deliver, nil:
            finish(id, with: .success((data, response)))
        }
    }

    /// What follows `response` for the call carried by `task`: the next hop's request (with what it received
    /// reset), a refusal, or the response itself.
    fileprivate enum NextHop {
        case follow(URLRequest)
        case refuse(TransportError.Code, String)
        case deliver
    }

    fileprivate func nextHop(of task: URLSessionTask, after response: HTTPURLResponse) -> NextHop? {
        let location = response.value(forHTTPHeaderField: "Location")
        return table.withLock { table -> NextHop? in
            let key = ObjectIdentifier(task)
            guard let id = table.callOfTask[key], var call = table.calls[id] else { return nil }
            defer { table.calls[id] = call }
            switch call.redirects.decide(status: response.statusCode, location: location, current: call.hop) {
            case .deliver:
                return .deliver
            case .refuse(let code, let message):
                return .refuse(code, message)
            case .follow(let hop):
                guard
                    let request = Self.urlRequest(
                        for: hop, timeoutInterval: call.timeoutInterval, closesConnection: call.closesConnection)
                else {
                    return .refuse(.redirectRefused, "the redirect target cannot form a URL")
                }
                table.callOfTask[key] = nil
                call.hop = hop
                call.data = Data()
                call.response = nil
                return .follow(request)
            }
        }
    }

    /// Sends `request` on a new task for the same call; the finished task no longer answers for it.
    fileprivate func restart(_ call: UInt64, with request: URLRequest, on session: URLSession) {
        onQueue { [self] in
            guard isPending(call) else { return }
            guard let task = makeTask(for: call, request, on: session) else { return }
            if bind(task, to: call) { task.resume() } else { task.cancel() }
        }
    }

    /// Turns what URLSession reported into `CancellationError` or a ``TransportError``, keeping Foundation's own
    /// words (on Linux, libcurl's message, which is all there is to tell a cut body from a TLS failure).
    static func classify(_ error: any Error) -> any Error {
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else { return TransportError(.other, "\(error)") }
        if nsError.code == NSURLErrorCancelled { return CancellationError() }
        let message = nsError.userInfo[NSLocalizedDescriptionKey] as? String ?? error.localizedDescription
        return TransportError(urlErrorCode: nsError.code, message: message)
    }
}
