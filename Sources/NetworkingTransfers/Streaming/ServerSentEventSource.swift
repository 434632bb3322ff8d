import Foundation
import NetworkingHTTP
import NetworkingCore

/// A Server-Sent Events stream that reconnects: it opens the stream, yields its events, and when the stream ends or
/// fails while being read, waits the reconnection time and opens it again with the last event ID, so that the
/// server can resume where the previous connection stopped (`Last-Event-ID`).
///
/// ```swift
/// let source = try ServerSentEventSource(clock: SystemClock()) { lastEventID in
///     try await openEventStream(lastEventID: lastEventID)  // sends Last-Event-ID when not nil
/// }
/// for try await event in source { print(event.id, event.data) }
/// ```
///
/// - The wait is the latest `retry` field of the stream (kept across connections) or, before any,
///   `reconnectionTime`; it runs on the injected clock.
/// - `open` receives `nil` on the first connection and whenever no event ID was received yet.
/// - An error thrown by `open` itself ends the sequence with that error: the event stream rules say not to
///   reconnect when the server answers without a stream (a 204, another status, another content type), and `open`
///   is where the caller decides that. ``EndOfStream`` thrown by `open` ends the sequence normally (for a 204). An error thrown while reading the chunks, or their end, leads to a
///   reconnection; `CancellationError` ends the sequence at once.
/// - After `maximumReconnections` reconnections in a row without an event, the sequence ends: with the last read
///   error if there was one, else normally. `nil` (the default) reconnects without limit, like a browser's
///   `EventSource`.
public struct ServerSentEventSource: AsyncSequence, Sendable {
    /// A decoded event.
    public typealias Element = ServerSentEvent

    /// Opens the event stream: receives the last event ID to send as `Last-Event-ID` (`nil` for none) and
    /// returns the stream's byte chunks.
    public typealias Open = @Sendable (_ lastEventID: String?) async throws -> AsyncThrowingStream<Data, any Error>

    /// The wait before a reconnection when the stream never set one with `retry`: 3 seconds, the usual default of
    /// browsers, long enough not to hammer a server that just closed the stream.
    public static let defaultReconnectionTime: Duration = .seconds(3)

    private let clock: any NetworkClock
    private let reconnectionTime: Duration
    private let maximumReconnections: Int?
    private let open: Open

    /// Creates a reconnecting source; nothing is opened until iteration starts.
    /// - Parameters:
    ///   - clock: The clock the waits between connections run on.
    ///   - reconnectionTime: The wait before a reconnection until the stream sets one with `retry`;
    ///     ``defaultReconnectionTime`` by default.
    ///   - maximumReconnections: How many reconnections in a row without an event are allowed; `nil` (default) for
    ///     no limit.
    ///   - open: Opens the stream, given the last event ID.
    /// - Throws: `BehaviorSettingsError` if `reconnectionTime` is negative or `maximumReconnections` is negative.
    public init(
        clock: any NetworkClock = SystemClock(), reconnectionTime: Duration = defaultReconnectionTime,
        maximumReconnections: Int? = nil, open: @escaping Open
    ) throws {
        try BehaviorSettingsError.require(
            reconnectionTime, atLeast: .zero, "reconnectionTime", in: "ServerSentEventSource")
        if let maximumReconnections {
            try BehaviorSettingsError.require(
                maximumReconnections, atLeast: 0, "maximumReconnections", in: "ServerSentEventSource")
        }
        self.clock = clock
        self.reconnectionTime = reconnectionTime
        self.maximumReconnections = maximumReconnections
        self.open = open
    }

    /// Creates an iterator; each iterator opens its own connections.
    public func makeAsyncIterator() -> Iterator {
        Iterator(source: self)
    }

    /// Iterates over the events of successive connections.
    public struct Iterator: AsyncIteratorProtocol {
        private let source: ServerSentEventSource
        private var decoder = ServerSentEventDecoder()
        private var chunks: AsyncThrowingStream<Data, any Error>.Iterator?
        private var ready: [ServerSentEvent] = []
        private var readyIndex = 0
        private var reconnectionsWithoutEvent = 0
        private var ended = false

        fileprivate init(source: ServerSentEventSource) {
            self.source = source
        }

        /// The next event, opening or reopening the stream as needed.
        /// - Throws: The error of `open`, `CancellationError`, or the last read error once the reconnections are
        ///   used up.
        public mutating func next() async throws -> ServerSentEvent? {
            while !ended {
                if readyIndex < ready.count {
                    defer { readyIndex += 1 }
                    reconnectionsWithoutEvent = 0
                    return ready[readyIndex]
                }
                guard var iterator = chunks else {
                    try await connect()
                    continue
                }
                var readError: (any Error)?
                do {
                    if let chunk = try await iterator.next() {
                        chunks = iterator
                        ready = decoder.decode(chunk)
                        readyIndex = 0
                        continue
                    }
                } catch {
                    if error is CancellationError || Task.isCancelled {
                        ended = true
                        throw CancellationError()
                    }
                    readError = error
                }
                chunks = nil
                decoder.finish()
                try await waitBeforeReconnecting(after: readError)
            }
            return nil
        }

        private mutating func connect() async throws {
            let lastEventID = decoder.lastEventID
            do {
                chunks = try await source.open(lastEventID.isEmpty ? nil : lastEventID).makeAsyncIterator()
            } catch is EndOfStream {
                ended = true
            } catch {
                ended = true
                throw error
            }
        }

        private mutating func waitBeforeReconnecting(after readError: (any Error)?) async throws {
            if let maximum = source.maximumReconnections, reconnectionsWithoutEvent >= maximum {
                ended = true
                if let readError { throw readError }
                return
            }
            reconnectionsWithoutEvent += 1
            do {
                try await source.clock.sleep(for: decoder.reconnectionTime ?? source.reconnectionTime)
            } catch {
                ended = true
                throw error
            }
        }
    }
}
