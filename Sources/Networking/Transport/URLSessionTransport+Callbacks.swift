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
        if let lengths = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Length"),
            Set(lengths.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }).count > 1
        {
            fail(dataTask, .other, "the response has conflicting Content-Length values (\(lengths))")
            completionHandler(.cancel)
            return
        }
        let head = response as? HTTPURLResponse
        // A HEAD response, a 204 and a 304 have no body whatever their Content-Length says (RFC 9110 §8.6): the
        // announced size of the resource is no reason to refuse them.
        let method = withCall(of: dataTask) { call, _ in
            call.response = head
            return call.method
        }
        let bodiless = method == "HEAD" || head.map { [204, 304].contains($0.statusCode) } == true
        let length = response.expectedContentLength
        if !bodiless && length > maximumBodySize {
            fail(dataTask, .responseTooLarge, "Content-Length \(length) exceeds the limit of \(maximumBodySize) bytes")
            completionHandler(.cancel)
            return
        }
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
        beginRedirectDecision(task)
        defer { endRedirectDecision(task) }
        enum Decision {
            case follow(strip: Bool, method: String?, body: Data?)
            case refuse(TransportError.Code, String)
        }
        let decision: Decision? =
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
                // Foundation already turned a POST into a GET (303, or 301/302): later hops repeat that, bodiless.
                if request.httpMethod != call.method, !([307, 308].contains(response.statusCode)) {
                    call.method = request.httpMethod
                    call.body = nil
                }
                return .follow(strip: call.credentialsStripped, method: call.method, body: call.body)
            }
        // The call already ended (cancelled, or out of time) and its task is being cancelled: answering now could
        // reach Foundation after the cancel, which it traps on. The task ends as cancelled without an answer.
        guard let decision else { return }
        switch decision {
        case .refuse(let code, let message):
            // Answer first: the cancel that `fail` issues then reaches Foundation after the answer.
            completionHandler(nil)
            fail(task, code, message)
        case .follow(let strip, let method, let body):
            var next = request
            if strip {
                for header in Self.credentialHeaders { next.setValue(nil, forHTTPHeaderField: header) }
            }
            // 307 and 308 repeat the method and body (RFC 9110 §15.4.8-9), but Linux clears the body of every
            // redirected request: decline, and send it again from `didCompleteWithError` on a new task.
            if [307, 308].contains(response.statusCode), let body, !body.isEmpty {
                next.httpMethod = method
                next.httpBody = body
                _ = withCall(of: task) { call, _ in call.manualRedirect = next }
                completionHandler(nil)
            } else {
                completionHandler(next)
            }
        }
    }

    /// HTTP authentication (401 with `WWW-Authenticate`) is left to behaviors: the challenge is rejected so the 401
    /// comes back as a response. Linux's default handling waits forever when it has no credential
    /// (swift-corelibs-foundation #5456); TLS trust and client-certificate challenges keep the default handling.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
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

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard
            let (id, data, response, rejected) = withCall(
                of: task,
                { call, id in
                    (id, call.data, call.response, call.challengeRejected)
                })
        else {
            return
        }
        // After a rejected challenge Linux ends the task as cancelled, having delivered the 401: that is the answer.
        if let error, rejected, let response, (error as NSError).code == NSURLErrorCancelled {
            finish(id, with: .success((data, response)))
            return
        }
        if error == nil, let redirect = takeManualRedirect(of: task) {
            restart(id, with: redirect, on: session)
        } else if let error {
            finish(id, with: .failure(Self.classify(error)))
        } else if let response = response ?? task.response as? HTTPURLResponse {
            // Linux never reports the head of a 3xx it did not follow (no usable Location): the task still has it.
            finish(id, with: .success((data, response)))
        } else {
            finish(id, with: .failure(TransportError(.badServerResponse, "the task ended without an HTTP response")))
        }
    }

    /// Removes and returns the pending manual redirect of the call carried by `task`, resetting what it received.
    fileprivate func takeManualRedirect(of task: URLSessionTask) -> URLRequest? {
        table.withLock { table in
            guard let id = table.callOfTask[ObjectIdentifier(task)], let redirect = table.calls[id]?.manualRedirect
            else { return nil }
            table.callOfTask[ObjectIdentifier(task)] = nil
            table.calls[id]?.manualRedirect = nil
            table.calls[id]?.data = Data()
            table.calls[id]?.response = nil
            return redirect
        }
    }

    /// Sends `request` on a new task for the same call.
    fileprivate func restart(_ call: UInt64, with request: URLRequest, on session: URLSession) {
        queue.async { [self] in
            guard isPending(call) else { return }
            let task = session.dataTask(with: request)
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
