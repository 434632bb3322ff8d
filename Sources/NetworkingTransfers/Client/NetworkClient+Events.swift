import Foundation
import NetworkingHTTP
import NetworkingCore

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
    /// before any), measured on `clock`. A connection that fails on the network (a transport error, or no head
    /// within the attempt timeout: `cannotConnect`, `cannotFindHost`, `notConnected`, `timedOut`,
    /// `connectionLost`) is retried the same way. A connection refused with a status, or any other error
    /// of the call, ends the sequence with that `NetworkError`: the event stream rules say not to reconnect then.
    /// So does a response whose `Content-Type` is not `text/event-stream` (parameters allowed): no event of it is
    /// delivered, and the error, of kind `decoding`, has an `EventStreamContentTypeError` naming the type received
    /// as its `underlyingError`. A `204 No Content` ends the sequence normally, without a reconnection.
    /// Ending the loop, or cancelling its task, closes the connection.
    ///
    /// - Parameters:
    ///   - request: The event stream's request; its decoding is not used.
    ///   - behavior: Behavior for each connection only; the client-wide behavior wraps it.
    ///   - clock: The clock of the waits between connections; `nil` (the default) uses the client's clock.
    ///   - maximumReconnections: Reconnections in a row without an event before the sequence ends; `nil` (the
    ///     default) for no limit.
    /// - Returns: The events, across reconnections.
    /// - Throws: `BehaviorSettingsError` when `maximumReconnections` is negative.
    public func events<Response>(
        _ request: NetworkRequest<Response>, behavior: any RequestBehavior = EmptyBehavior(),
        clock: (any NetworkClock)? = nil, maximumReconnections: Int? = nil
    ) throws -> ServerSentEventSource {
        var request = request
        if !request.headers.contains(.accept) { request.headers[.accept] = "text/event-stream" }
        let base = request
        let clock = clock ?? configuration.clock
        return try ServerSentEventSource(clock: clock, maximumReconnections: maximumReconnections) { lastEventID in
            var request = base
            if let lastEventID { request.headers[HTTPField.Name("Last-Event-ID")] = lastEventID }
            let streamed: StreamedResponse
            do {
                streamed = try await self.stream(request, behavior: behavior)
            } catch let error as NetworkError where Self.isNetworkFailure(error) {
                // A failure on the network is a lost connection: the source waits and reconnects.
                return AsyncThrowingStream { throw error }
            }
            try Self.checkEventStream(streamed, request: request)
            let reader = BodyReader(streamed.body)
            return AsyncThrowingStream { try await reader.next() }
        }
    }

    /// The HTML Standard's checks of an event stream response (§9.2.3): a `204` ends the events without a
    /// reconnection; a `Content-Type` other than `text/event-stream` fails the connection, without reconnection.
    private static func checkEventStream<Response>(
        _ streamed: StreamedResponse, request: NetworkRequest<Response>
    ) throws {
        let head = streamed.response
        if head.status.code == 204 {
            streamed.body.cancel()
            throw ServerSentEventSource.EndOfStream()
        }
        let contentType = head.headerFields["Content-Type"]
        guard EventStreamContentTypeError.isEventStream(contentType) else {
            streamed.body.cancel()
            let name = request.name
            let wrong = EventStreamContentTypeError(received: contentType, requestName: name)
            throw NetworkError(
                .decoding, requestName: name, message: wrong.description, response: head, underlyingError: wrong)
        }
    }

    /// Whether `error` is the network failing (the connection, or no head in time), not the server refusing.
    private static func isNetworkFailure(_ error: NetworkError) -> Bool {
        switch error.kind {
        case .transport(let code):
            [.cannotConnect, .cannotFindHost, .notConnected, .timedOut, .connectionLost].contains(code)
        case .timedOut(.attempt): true
        default: false
        }
    }
}

/// One reader of a body, pulled from a `@Sendable` closure: the iterator lives behind a lock, as only one task ever
/// reads it.
final class BodyReader: Sendable {
    private let iterator: LockedBox<HTTPBody.Iterator>
    private let body: HTTPBody

    init(_ body: HTTPBody) {
        self.body = body
        self.iterator = LockedBox(body.makeAsyncIterator())
    }

    /// The next chunk, or `nil` at the end.
    func next() async throws -> Data? {
        if let buffer = body.buffer { return try await buffer.next() }
        var copy = iterator.withLock { $0 }
        let chunk = try await copy.next()
        iterator.withLock { $0 = copy }
        return chunk
    }
}
