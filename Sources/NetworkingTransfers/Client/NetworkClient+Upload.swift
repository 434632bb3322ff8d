import Foundation
import NetworkingHTTP
import NetworkingCore

extension NetworkClient {
    /// Starts sending `request` and returns the running call: its upload progress and, when it ends, its decoded
    /// value. Meant for large bodies, above all `RequestBody/file(_:contentType:)` and `RequestBody/multipart(_:)`, streamed from disk.
    ///
    /// ```swift
    /// let call = client.upload(NetworkRequest<Receipt>(.post, path: "/videos", body: .file(movieURL)))
    /// for await progress in call.progress { print(progress.fractionCompleted ?? 0) }
    /// let receipt = try await call.value
    /// ```
    ///
    /// `NetworkCall/progress` reports the bytes of the body sent so far and the body's size when the transport
    /// knows it; it never goes back (a retry or a redirect that sends the body again shows once it passes the
    /// bytes already reported) and, when the call succeeds, ends at the body's size. The call runs in a task of
    /// its own: cancel it with `NetworkCall/cancel()` or by cancelling a task awaiting `NetworkCall/value`.
    ///
    /// - Parameters:
    ///   - request: What to send and how to decode the answer.
    ///   - behavior: Behavior for this call only; the client-wide behavior wraps it.
    /// - Returns: The running call. Its `NetworkCall/value` throws `NetworkError` for any failure (a missing
    ///   or unreadable body file: kind `invalidRequest`, naming the path), `CancellationError` when cancelled.
    public func upload<Response>(
        _ request: NetworkRequest<Response>, behavior: any RequestBehavior = EmptyBehavior()
    ) -> NetworkCall<Response> {
        let reporter = TransferProgressReporter()
        let size = request.body?.length
        let reporting = CombinedBehavior([behavior, UploadProgressBehavior(reporter: reporter)])
        let total: @Sendable (Response) -> Int64? = { _ in size }
        return NetworkCall(reporter: reporter, total: total) {
            try await self.send(request, behavior: reporting)
        }
    }
}

/// Watches every attempt of the call (`TransferObservation`) and hands the bytes the transport reports sent to the
/// call's progress reporter, which keeps the values monotonic across retries and redirects.
private struct UploadProgressBehavior: RequestBehavior {
    let reporter: TransferProgressReporter

    /// Outermost, beside metrics: it watches the whole call.
    var placement: BehaviorPlacement { .metrics }

    func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        try await TransferObservation.observe(with: Observer(reporter: reporter)) { try await next(request) }
    }

    private struct Observer: TransferObserver, AttemptObserver {
        let reporter: TransferProgressReporter

        func attemptStarted(_ request: HTTPRequest) -> (any AttemptObserver)? { self }

        func bytesSent(_ total: Int64, of expected: Int64?) {
            reporter.report(completedBytes: total, expectedBytes: expected)
        }
    }
}
