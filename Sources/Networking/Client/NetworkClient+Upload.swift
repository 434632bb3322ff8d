import Foundation

extension NetworkClient {
    /// Starts sending `request` and returns the running call: its upload progress and, when it ends, its decoded
    /// value. Meant for large bodies, above all ``RequestBody/file(_:contentType:)`` and ``RequestBody/multipart(_:)``, streamed from disk.
    ///
    /// ```swift
    /// let call = client.upload(NetworkRequest<Receipt>(.post, path: "/videos", body: .file(movieURL)))
    /// for await progress in call.progress { print(progress.fractionCompleted ?? 0) }
    /// let receipt = try await call.value
    /// ```
    ///
    /// ``NetworkCall/progress`` reports the bytes of the body sent so far and the body's size when the transport
    /// knows it; it never goes back (a retry or a redirect that sends the body again shows once it passes the
    /// bytes already reported) and, when the call succeeds, ends at the body's size. The call runs in a task of
    /// its own: cancel it with ``NetworkCall/cancel()`` or by cancelling a task awaiting ``NetworkCall/value``.
    ///
    /// - Parameters:
    ///   - request: What to send and how to decode the answer.
    ///   - behavior: Behavior for this call only; the client-wide behavior wraps it.
    /// - Returns: The running call. Its ``NetworkCall/value`` throws ``NetworkError`` for any failure (a missing
    ///   or unreadable body file: kind `invalidRequest`, naming the path), `CancellationError` when cancelled.
    public func upload<Response>(
        _ request: NetworkRequest<Response>, behavior: any RequestBehavior = EmptyBehavior()
    ) -> NetworkCall<Response> {
        let reporter = TransferProgressReporter()
        let size: Int64? =
            switch request.body {
            case .data(let data, _): Int64(data.count)
            case .file(let url, _): BodyFile.size(url)
            case .multipart(let form): form.contentLength
            case .stream(let stream, _): stream.length
            case .json, .form, nil: nil
            }
        let reporting = CombinedBehavior([behavior, UploadProgressBehavior(reporter: reporter)])
        let total: @Sendable (Response) -> Int64? = { _ in size }
        return NetworkCall(reporter: reporter, total: total) {
            try await self.send(request, behavior: reporting)
        }
    }
}

/// Hands the call's progress reporter to the transport, innermost, so that every attempt carries it.
private struct UploadProgressBehavior: RequestBehavior {
    let reporter: TransferProgressReporter

    func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        var request = request
        request.transferProgress = reporter
        return try await next(request)
    }
}
