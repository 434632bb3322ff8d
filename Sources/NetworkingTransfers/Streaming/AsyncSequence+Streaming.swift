import Foundation
import NetworkingHTTP
import NetworkingCore

extension AsyncSequence where Element == Data {
    /// The text lines of this chunk stream (LF, CRLF or CR line ends, even split across chunks), decoded as UTF-8.
    ///
    /// ```swift
    /// for try await line in chunks.lines { print(line) }
    /// ```
    public var lines: DataLineSequence<Self> { DataLineSequence(self) }

    /// The Server-Sent Events of this `text/event-stream` chunk stream, decoded by ``ServerSentEventDecoder``.
    ///
    /// ```swift
    /// for try await event in chunks.serverSentEvents where event.event == "tick" { print(event.data) }
    /// ```
    ///
    /// To reconnect when the stream ends, use ``ServerSentEventSource``.
    public var serverSentEvents: ServerSentEventSequence<Self> { ServerSentEventSequence(self) }
}
