import Foundation
import NetworkingHTTP
import NetworkingCore
import NetworkingTLS

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session callbacks of ``URLSessionTransportDelegate``: the head, the body as it arrives, redirects left to the
/// client, HTTP authentication challenges, and completion.
extension URLSessionTransportDelegate {
    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        // RFC 9112 §6.3: a Content-Length with differing values (two fields, or one list) or an invalid one makes
        // the framing unrecoverable; libcurl frames by one of them, which can cut the body short while the call looks
        // successful. On Linux, announced trailers are refused too (`refusal(of:)`).
        if let head = response as? HTTPURLResponse,
            let refusal = Self.refusal(of: head, method: withCall(of: dataTask) { call, _ in call.method })
        {
            fail(dataTask, .other, refusal)
            completionHandler(.cancel)
            return
        }
        // An interim 1xx head is never the answer (RFC 9110 §15.2): the final head follows.
        guard let head = response as? HTTPURLResponse, !(100..<200).contains(head.statusCode) else {
            completionHandler(.allow)
            return
        }
        _ = withCall(of: dataTask) { call, _ in call.response = head }
        deliverHead(head, of: dataTask, session: session)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let feed = withCall(of: dataTask, { call, _ in call.feed }) ?? nil else { return }
        if !feed.yield(data) { pause(dataTask) }
    }

    /// Every redirect is declined: the client follows it (`RedirectState`), hop by hop, whatever the platform.
    /// Linux would drop the body of a redirected request and keep credentials across origins.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        beginRedirectDecision(task)
        defer { endRedirectDecision(task) }
        // The call already ended (cancelled) and its task is being cancelled: answering now could reach Foundation
        // after the cancel, which it traps on. The task ends as cancelled without an answer.
        guard withCall(of: task, { _, _ in true }) != nil else { return }
        completionHandler(nil)
    }

    /// HTTP authentication (401 with `WWW-Authenticate`) is left to behaviors: the challenge is rejected so the 401
    /// comes back as a response. Linux's default handling waits forever when it has no credential
    /// (swift-corelibs-foundation #5456). On Apple platforms a server-trust challenge is judged by `ServerTrust`
    /// when the configuration sets one; other TLS challenges keep the default handling.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        // Apple docs checked: URLAuthenticationChallenge.protectionSpace.serverTrust, NSURLAuthenticationMethodServerTrust
        // (developer.apple.com/documentation/foundation/urlprotectionspace/servertrust); Linux has no SecTrust.
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

    // Apple docs checked: urlSession(_:task:didFinishCollecting:), URLSessionTaskTransactionMetrics.isReusedConnection
    // and networkProtocolName, URLSessionTask.countOfBytesSent and countOfBytesReceived
    // (developer.apple.com/documentation/foundation/urlsessiontasktransactionmetrics). make portability builds it on Linux.
    #if !canImport(FoundationNetworking) || NETWORKING_APPLE_PATHS
        /// Reports connection reuse and the protocol to the attempt's observer. Apple platforms deliver task metrics
        /// just before the task completes; Linux never delivers them.
        func urlSession(
            _ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics
        ) {
            guard let transaction = metrics.transactionMetrics.last,
                let observer = withCall(of: task, { call, _ in call.observer }) ?? nil
            else { return }
            observer.transportReported(
                TransportMetrics(
                    reusedConnection: transaction.isReusedConnection,
                    httpVersion: transaction.networkProtocolName.map { $0 == "h2" ? "HTTP/2" : $0.uppercased() },
                    bytesSent: task.countOfBytesSent, bytesReceived: task.countOfBytesReceived))
        }
    #endif

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard
            let (id, response, rejected, trustRefused, delivered) = withCall(
                of: task,
                { call, id in (id, call.response, call.challengeRejected, call.trustRefused, call.feed != nil) }
            )
        else {
            return
        }
        if trustRefused {
            let message = "the server's certificate chain does not satisfy the transport's ServerTrust"
            finish(id, failure: TransportError(.secureConnectionFailed, message, secureConnectionFailure: .certificate))
            return
        }
        // After a rejected challenge Linux ends the task as cancelled, having delivered the 401: that is the answer.
        if let error, !(rejected && response != nil && (error as NSError).code == NSURLErrorCancelled) {
            finish(id, failure: Self.classify(error))
            return
        }
        // Linux never reports the head of a 3xx it did not follow, nor of a rejected challenge: the task has it.
        if !delivered {
            guard let head = response ?? task.response as? HTTPURLResponse else {
                finish(id, failure: TransportError(.badServerResponse, "the task ended without an HTTP response"))
                return
            }
            deliverHead(head, of: task, session: session)
        }
        finish(id, failure: nil)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        guard let observer = withCall(of: task, { call, _ in call.observer }) ?? nil else { return }
        observer.bytesSent(totalBytesSent, of: totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : nil)
    }

    /// Turns what URLSession reported into `CancellationError` or a `TransportError`, keeping Foundation's own
    /// words (on Linux, libcurl's message, which is all there is to tell a cut body from a TLS failure).
    static func classify(_ error: any Error) -> any Error {
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else { return TransportError(.other, "\(error)") }
        if nsError.code == NSURLErrorCancelled { return CancellationError() }
        let message = nsError.userInfo[NSLocalizedDescriptionKey] as? String ?? error.localizedDescription
        // libcurl's words when Foundation's header callback refused a line (Linux): say which lines it cannot read.
        // RFC 9112 §4 makes the reason phrase optional, but Foundation splits a status line on two spaces
        // (`String.splitRequestLine` in HTTPMessage.swift): `HTTP/1.1 200` ends the call here, never as a response.
        if nsError.code == NSURLErrorUnknown, message == "Failed writing header" {
            return TransportError(
                .other,
                message + ": Foundation's header parser refused the response head (a status line without a reason"
                    + " phrase, such as \"HTTP/1.1 200\", or a header line without a name or not in UTF-8)",
                urlErrorCode: nsError.code)
        }
        return TransportError(urlErrorCode: nsError.code, message: message)
    }
}
