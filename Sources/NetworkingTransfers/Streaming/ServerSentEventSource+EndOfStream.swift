import Foundation
import NetworkingHTTP
import NetworkingCore

extension ServerSentEventSource {
    /// Thrown by an `Open` closure to end the sequence normally, without reconnecting: the server said there are
    /// no more events (a `204 No Content`, HTML Standard §9.2.3).
    ///
    /// ```swift
    /// let source = try ServerSentEventSource { lastEventID in
    ///     let (status, chunks) = try await connect(lastEventID: lastEventID)  // your request, with its status
    ///     if status == 204 { throw ServerSentEventSource.EndOfStream() }
    ///     return chunks
    /// }
    /// ```
    public struct EndOfStream: Error, Sendable, Hashable, CustomStringConvertible {
        /// Creates the signal.
        public init() {}

        /// What the signal means.
        public var description: String {
            "the server said the event stream is over: the source ends without reconnecting"
        }
    }
}

extension ServerSentEventSource.EndOfStream: LocalizedError {
    /// The same text as `description`, so `localizedDescription` reads as well.
    public var errorDescription: String? { description }
}
