import Foundation
import NetworkingHTTP
import NetworkingCore

extension NetworkClient {
    /// Sends `request` and returns as soon as the response head arrives, with the body as a stream of chunks.
    ///
    /// ```swift
    /// let streamed = try await client.stream(NetworkRequest<Data>(path: "/events"))
    /// for try await chunk in streamed.body {
    ///     handle(chunk)
    /// }
    /// ```
    /// Every behavior applies, and sees the head with a body still arriving (`HTTPBody/isStreaming`) it must not
    /// read.
    /// The attempt timeout limits the wait for the head, then becomes an idle limit: the call fails with
    /// `NetworkError` of kind `timedOut(attempt)` when no byte arrives for that long once the reader has read
    /// everything received (unread chunks keep it from firing). The call's deadline, if set, still ends the stream. `maximumResponseBodySize` does not apply. An unacceptable
    /// status throws as with `send`, with at most 64 KiB of the body. Errors in the body are `NetworkError`s
    /// naming the request. The request's decoding is not used.
    ///
    /// - Parameters:
    ///   - request: What to send.
    ///   - behavior: Behavior for this call only; the client-wide behavior wraps it.
    /// - Returns: The head and the body stream.
    /// - Throws: `NetworkError`, or
    ///   `CancellationError`.
    public func stream<Response>(
        _ request: NetworkRequest<Response>,
        behavior: any RequestBehavior = EmptyBehavior()
    ) async throws -> StreamedResponse {
        let call = try prepare(request, behavior: behavior, form: .stream)
        // A behavior may answer with a body in memory (a cache, a stub): it is read the same way, as one chunk.
        let (response, body) = try await call.run(call.attempt.run)
        return StreamedResponse(response: response, body: body)
    }
}
