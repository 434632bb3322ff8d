import Foundation

extension NetworkClient {
    /// The Server-Sent Events of `request`, reconnecting as a browser's `EventSource` does.
    ///
    /// ```swift
    /// let events = try client.events(NetworkRequest<Data>(path: "/notifications"))
    /// for try await event in events {
    ///     print(event.event, event.data)
    /// }
    /// ```
    /// Each connection is a ``stream(_:behavior:)`` call, so every behavior applies to it (authorization, logging,
    /// retry before the head arrives). The request is sent with `Accept: text/event-stream` unless it sets its own
    /// `Accept`, and, on a reconnection after an event with an `id`, with `Last-Event-ID` carrying it. When a
    /// connection ends or fails while being read, the next one opens after the stream's latest `retry` time (3 s
    /// before any), measured on `clock`. A connection refused with a status, or any error of the call before the
    /// head arrives, ends the sequence with that ``NetworkError``: the event stream rules say not to reconnect
    /// then. Ending the loop, or cancelling its task, closes the connection.
    ///
    /// - Parameters:
    ///   - request: The event stream's request; its decoding is not used.
    ///   - behavior: Behavior for each connection only; the client-wide behavior wraps it.
    ///   - clock: The clock of the waits between connections.
    ///   - maximumReconnections: Reconnections in a row without an event before the sequence ends; `nil` (the
    ///     default) for no limit.
    /// - Returns: The events, across reconnections.
    /// - Throws: ``BehaviorSettingsError`` when `maximumReconnections` is negative.
    public func events<Response>(
        _ request: NetworkRequest<Response>, behavior: any RequestBehavior = EmptyBehavior(),
        clock: any NetworkClock = SystemClock(), maximumReconnections: Int? = nil
    ) throws -> ServerSentEventSource {
        var request = request
        if !request.headers.contains(.accept) { request.headers[.accept] = "text/event-stream" }
        let base = request
        return try ServerSentEventSource(clock: clock, maximumReconnections: maximumReconnections) { lastEventID in
            var request = base
            if let lastEventID { request.headers[HTTPField.Name("Last-Event-ID")] = lastEventID }
            let body = try await self.stream(request, behavior: behavior).body
            return AsyncThrowingStream { try await body.buffer.next() }
        }
    }
}
