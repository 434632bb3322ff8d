import Foundation

/// A response body that arrives in chunks, read once, as it comes: what ``NetworkClient/stream(_:behavior:)``
/// returns and what a ``StreamingHTTPTransport`` produces.
///
/// ```swift
/// for try await chunk in streamed.body {
///     consume(chunk)
/// }
/// ```
/// The buffer between the network and the reader is bounded (``defaultBufferLimit``): when it is full the
/// producer is told to wait (see ``Continuation/yield(_:)``). Cancelling the reading task, calling ``cancel()``,
/// or dropping the last copy of the stream ends it as cancelled, and the transport closes its connection.
/// Only one task may read a stream: a second read while one waits fails with a ``TransportError``. Streams are equal when they are the same stream.
public struct ResponseBodyStream: AsyncSequence, Sendable, Hashable {
    /// Each element is one chunk of the body, as it arrived.
    public typealias Element = Data
    /// The default buffer bound: 1 MiB, room for a few hundred network reads, small enough for any device.
    public static let defaultBufferLimit = 1024 * 1024

    /// Cancels the stream when the reader's last copy goes away.
    fileprivate final class ReaderHandle: Sendable {
        let buffer: ResponseBodyBuffer
        init(_ buffer: ResponseBodyBuffer) { self.buffer = buffer }
        deinit { buffer.finish(.cancelled) }
    }

    private let handle: ReaderHandle
    package var buffer: ResponseBodyBuffer { handle.buffer }

    private init(buffer: ResponseBodyBuffer) {
        handle = ReaderHandle(buffer)
    }

    /// Makes a stream and the continuation that feeds it.
    ///
    /// - Parameters:
    ///   - bufferLimit: The bytes buffered before ``Continuation/yield(_:)`` answers `false`.
    ///   - onDemand: Called when the reader has drained a full buffer to half: the producer may resume.
    /// - Returns: The stream, for the reader, and its continuation, for the producer.
    public static func makeStream(
        bufferLimit: Int = defaultBufferLimit, onDemand: (@Sendable () -> Void)? = nil
    ) -> (stream: ResponseBodyStream, continuation: Continuation) {
        let buffer = ResponseBodyBuffer(limit: bufferLimit, onDemand: onDemand)
        return (ResponseBodyStream(buffer: buffer), Continuation(buffer: buffer))
    }

    /// A stream of the given chunks, already complete.
    ///
    /// - Parameter chunks: The body's chunks.
    /// - Returns: A finished stream that yields `chunks`.
    public static func complete(_ chunks: [Data]) -> ResponseBodyStream {
        let (stream, continuation) = makeStream(bufferLimit: Int.max)
        for chunk in chunks { _ = continuation.yield(chunk) }
        continuation.finish()
        return stream
    }

    /// Ends the stream as cancelled: buffered chunks are dropped and the producer stops.
    public func cancel() {
        buffer.finish(.cancelled)
    }

    /// Calls `observer` once, when the stream ends (at once if it has): after the reader had the last chunk, or
    /// when it failed or was cancelled. Behaviors use it to act at the end of a streamed call.
    ///
    /// - Parameter observer: Told how the stream ended and how many bytes the reader received.
    public func onTermination(_ observer: @escaping @Sendable (Termination) -> Void) {
        buffer.onTermination(observer)
    }

    /// Reads the stream.
    public func makeAsyncIterator() -> Iterator {
        Iterator(handle: handle)
    }

    /// Reads the chunks of a ``ResponseBodyStream``.
    public struct Iterator: AsyncIteratorProtocol {
        fileprivate let handle: ReaderHandle

        /// The next chunk; `nil` at the end of the body.
        ///
        /// - Throws: The transfer's error (a ``NetworkError`` when read from the client), or `CancellationError`.
        public mutating func next() async throws -> Data? {
            try await handle.buffer.next()
        }
    }

    /// Streams are equal when they are the same stream.
    public static func == (lhs: ResponseBodyStream, rhs: ResponseBodyStream) -> Bool {
        lhs.handle.buffer === rhs.handle.buffer
    }

    /// Hashes the stream's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(handle.buffer))
    }
}
