import NetworkingHTTP
import NetworkingCore

/// One event of a `text/event-stream` (Server-Sent Events), as dispatched by ``ServerSentEventDecoder``.
public struct ServerSentEvent: Sendable, Hashable {
    /// The event type: the last `event` field of the event's block, or `"message"` when it had none.
    public var event: String
    /// The `data` fields of the event's block joined with LF (one line per field, no trailing LF).
    public var data: String
    /// The last event ID when the event was dispatched: the latest `id` field of this block or of an earlier one
    /// (IDs carry over until changed), empty when the stream never set one. A client sends it back as
    /// `Last-Event-ID` when it reconnects.
    public var id: String
    /// The reconnection time set by a `retry` field in this event's block, if it had one.
    public var retry: Duration?

    /// Creates an event.
    /// - Parameters:
    ///   - event: The event type; `"message"` by default.
    ///   - data: The event's data.
    ///   - id: The last event ID; empty by default.
    ///   - retry: The reconnection time set in the event's block, if any.
    public init(event: String = "message", data: String, id: String = "", retry: Duration? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }
}
