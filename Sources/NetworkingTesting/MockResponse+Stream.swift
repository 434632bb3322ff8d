import Foundation
import NetworkingHTTP
import NetworkingCore

extension MockResponse {
    /// How a streamed mock body ends after its last chunk.
    public enum StreamEnd: Sendable {
        /// The body is complete.
        case finish
        /// The transfer fails with this error (a `TransportError` stands for a cut connection).
        case fail(any Error)
        /// No more bytes ever come: the client's idle time-out or a cancellation ends it.
        case stall
    }

    /// A body that arrives in `chunks`, for `NetworkClient/stream(_:behavior:)` and downloads:
    /// `.streamed([Data("a".utf8), Data("b".utf8)], every: .seconds(1))`.
    ///
    /// With `every`, each chunk comes that long after the previous one (after the head for the first), on the
    /// transport's clock: a `TestClock` drives them. The producer respects the reader's backpressure.
    /// `NetworkClient.send` reads the same stream: it receives the chunks joined, the `.fail` error, or, for a
    /// `.stall`, the attempt's time-out.
    ///
    /// - Parameters:
    ///   - chunks: The body's chunks, in order.
    ///   - every: The time between chunks; `nil` for all at once.
    ///   - status: The status code.
    ///   - headers: The header fields.
    ///   - end: What follows the last chunk.
    /// - Returns: The response.
    public static func streamed(
        _ chunks: [Data], every: Duration? = nil, status: Int = 200, headers: HTTPFields = [:],
        end: StreamEnd = .finish
    ) -> MockResponse {
        MockResponse(status: status, headers: headers, body: .chunks(chunks, interval: every, end: end))
    }
}
