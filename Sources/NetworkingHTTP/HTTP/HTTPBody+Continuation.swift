import Foundation

extension HTTPBody {
    /// The producer's side of a ``HTTPBody``: a transport yields chunks into it and finishes it.
    public struct Continuation: Sendable {
        /// The buffer the reader drains (package: the transports ask it whether it is full or written through).
        package let buffer: BodyBuffer

        /// Adds `chunk` for the reader.
        ///
        /// - Parameter chunk: The next bytes of the body.
        /// - Returns: `true` while the reader has room; `false` when the buffer is full (pause until `onDemand`)
        ///   or the stream has ended (stop).
        @discardableResult
        public func yield(_ chunk: Data) -> Bool {
            buffer.yield(chunk)
        }

        /// Adds `chunk` and waits until the reader has room for more: backpressure for an async producer.
        ///
        /// - Parameter chunk: The next bytes of the body.
        /// - Throws: `CancellationError` when the stream ended (the reader cancelled) or the task was cancelled.
        public func send(_ chunk: Data) async throws {
            if !buffer.yield(chunk) { try await buffer.waitForDemand() }
        }

        /// Ends the body: the reader gets what is buffered, then the end, or `error`; a `CancellationError` ends it
        /// as cancelled, dropping what is buffered, and the reader gets `CancellationError` at once.
        ///
        /// - Parameter error: Why the body ended early; `nil` when it is complete.
        public func finish(throwing error: (any Error)? = nil) {
            buffer.finish(error.map { $0 is CancellationError ? .cancelled : .failed($0) } ?? .finished)
        }

        /// Ends the body complete, with the trailer fields that came after it (a chunked response's trailer section,
        /// an HTTP/2 response's trailing HEADERS): the reader gets what is buffered, then the end, and finds the
        /// fields in ``HTTPBody/trailerFields`` from then on.
        ///
        /// - Parameter trailerFields: The trailer fields.
        public func finish(trailerFields: HTTPFields) {
            buffer.finish(.finished, trailerFields: trailerFields)
        }

        /// Calls `observer` when the stream ends; a producer uses it to stop when the reader cancels.
        ///
        /// - Parameter observer: Told how the stream ended.
        public func onTermination(_ observer: @escaping @Sendable (Termination) -> Void) {
            buffer.onTermination(observer)
        }
    }

    /// How a stream ended, and how many bytes its reader received.
    public struct Termination: Sendable {
        /// The ways a stream ends.
        public enum Outcome: Sendable {
            /// The whole body was read.
            case finished
            /// The transfer failed; the reader got this error.
            case failed(any Error)
            /// The reader cancelled, or dropped the stream.
            case cancelled
        }

        /// How it ended.
        public let outcome: Outcome
        /// The bytes the reader received.
        public let byteCount: Int64
    }
}

extension HTTPBody {
    /// A body arriving in the given chunks, already complete: for tests of readers.
    package static func complete(_ chunks: [Data]) -> HTTPBody {
        complete(chunks, trailerFields: nil)
    }

    /// A body arriving in the given chunks, already complete, with the trailer fields that followed them.
    package static func complete(_ chunks: [Data], trailerFields: HTTPFields?) -> HTTPBody {
        let (body, continuation) = makeStream(bufferLimit: Int.max)
        for chunk in chunks { continuation.yield(chunk) }
        if let trailerFields { continuation.finish(trailerFields: trailerFields) } else { continuation.finish() }
        return body
    }
}
