import Foundation
import NetworkingHTTP
import NetworkingCore

/// Streamed bodies: a `.streamed` stub is produced chunk by chunk on the transport's clock, respecting the reader's
/// backpressure. The producing task ends with the stream (finished, failed, cancelled or dropped):
/// ``openStreamCount`` counts those still running.
extension MockTransport {
    /// The head and the arriving body of a `.streamed` stub; `nil` for any other answer.
    package func streamed(_ mock: MockResponse, to request: HTTPRequest) throws -> (HTTPResponse, HTTPBody)? {
        guard case .chunks(let chunks, let interval, let end) = mock.body else { return nil }
        if let error = mock.error { throw error }
        let head = HTTPResponse(status: .init(code: mock.status), headerFields: mock.headers, url: request.url)
        let (body, continuation) = HTTPBody.makeStream()
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
                case .finish:
                    if let trailers = mock.trailerFields {
                        continuation.finish(trailerFields: trailers)
                    } else {
                        continuation.finish()
                    }
                case .fail(let error): continuation.finish(throwing: error)
                case .stall: try await clock.sleep(for: .seconds(100 * 365 * 86_400))
                }
            } catch {
                continuation.finish(throwing: CancellationError())
            }
        }
        continuation.onTermination { _ in producer.cancel() }
        return (head, body)
    }

    /// The streamed bodies whose producing task is still running: 0 once every stream ended or was cancelled.
    public var openStreamCount: Int { state.withLock { $0.openStreams } }
}
