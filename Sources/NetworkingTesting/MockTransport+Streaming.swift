import Foundation
import Networking

/// Streamed bodies: a `.streamed` stub is produced chunk by chunk on the transport's clock, respecting the reader's
/// backpressure; every other answer streams as one chunk. The producing task ends with the stream (finished,
/// failed, cancelled or dropped): ``openStreamCount`` counts those still running.
extension MockTransport: StreamingHTTPTransport {
    /// Answers `request` with the head at once and the body as a stream.
    ///
    /// - Parameter request: The request.
    /// - Returns: The head and the body stream.
    /// - Throws: A stub's error (before the head), `CancellationError`, or ``UnmatchedRequestError``.
    public func stream(_ request: HTTPRequest) async throws -> (HTTPResponse, ResponseBodyStream) {
        let mock: MockResponse
        switch try await resolve(request) {
        case .direct(let head, let data):
            return (head, .complete(data.isEmpty ? [] : [data]))
        case .mock(let response):
            mock = response
        }
        if let error = mock.error { throw error }
        let head = HTTPResponse(status: .init(code: mock.status), headerFields: mock.headers, url: request.url)
        guard case .chunks(let chunks, let interval, let end) = mock.body else {
            let (_, data) = try mock.answer(to: request, encoder: encoder)
            return (head, .complete(data.isEmpty ? [] : [data]))
        }
        let (stream, continuation) = ResponseBodyStream.makeStream()
        let clock = clock
        state.withLock { $0.openStreams += 1 }
        let producer = Task { [state] in
            defer { state.withLock { $0.openStreams -= 1 } }
            do {
                for chunk in chunks {
                    if let interval { try await clock.sleep(for: interval) }
                    try await continuation.send(chunk)
                }
                switch end {
                case .finish: continuation.finish()
                case .fail(let error): continuation.finish(throwing: error)
                case .stall: try await clock.sleep(for: .seconds(100 * 365 * 86_400))
                }
            } catch {
                continuation.finish(throwing: CancellationError())
            }
        }
        continuation.onTermination { _ in producer.cancel() }
        return (head, stream)
    }

    /// The streamed bodies whose producing task is still running: 0 once every stream ended or was cancelled.
    public var openStreamCount: Int { state.withLock { $0.openStreams } }
}
