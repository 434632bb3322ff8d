import Foundation

/// A transport that can hand back a response as soon as its head arrives, with the body still streaming: what
/// ``NetworkClient/stream(_:behavior:)`` and ``NetworkClient/download(_:to:maximumSize:behavior:)`` need.
///
/// The default transport, `FixtureTransport` and `MockTransport` conform. A client whose transport does not
/// conform fails those calls with a ``NetworkError`` whose `underlyingError` is ``StreamingUnsupportedError``.
///
/// ### Rules for a streaming transport
/// - Return once the head is known; feed the body into the stream's continuation, respecting its backpressure
///   (``ResponseBodyStream/Continuation/yield(_:)`` answers `false`, or use
///   ``ResponseBodyStream/Continuation/send(_:)``), and finish it, with an error if the transfer fails. For a
///   download the client writes each chunk to its file within `yield`, so a producer that yields from its own
///   thread goes at the disk's pace.
/// - When the stream ends as cancelled, stop the transfer and close the connection
///   (``ResponseBodyStream/Continuation/onTermination(_:)``).
/// - Apply no body size limit and no total time limit: the client keeps an idle limit itself.
public protocol StreamingHTTPTransport: HTTPTransport {
    /// Sends `request` and returns the response head with its body as a stream.
    ///
    /// - Parameter request: The request, already checked and changed by every behavior.
    /// - Returns: The response head and the body stream, for any status code.
    /// - Throws: `CancellationError` when cancelled before the head; a ``TransportError`` when no head came.
    func stream(_ request: HTTPRequest) async throws -> (HTTPResponse, ResponseBodyStream)
}
