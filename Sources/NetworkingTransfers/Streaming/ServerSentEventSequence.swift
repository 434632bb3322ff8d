import Foundation
import NetworkingHTTP
import NetworkingCore

/// The Server-Sent Events of an async sequence of byte chunks, as returned by
/// `AsyncSequence.serverSentEvents`.
///
/// It applies ``ServerSentEventDecoder`` to each chunk. When the chunks end, an event not closed by a blank line is
/// discarded, as the event stream rules require. Errors of the base sequence are rethrown after the events
/// completed before them.
public struct ServerSentEventSequence<Base: AsyncSequence>: AsyncSequence where Base.Element == Data {
    /// A decoded event.
    public typealias Element = ServerSentEvent

    private let base: Base
    private let lastEventID: String

    /// Creates the sequence of events of `base`.
    /// - Parameters:
    ///   - base: An async sequence of the bytes of a `text/event-stream`.
    ///   - lastEventID: The last event ID the stream starts with (the one sent as `Last-Event-ID`); empty by default.
    public init(_ base: Base, lastEventID: String = "") {
        self.base = base
        self.lastEventID = lastEventID
    }

    /// Creates an iterator over the events.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), decoder: ServerSentEventDecoder(lastEventID: lastEventID))
    }

    /// Iterates over the events of the chunks, reading a chunk only when no decoded event is waiting.
    public struct Iterator: AsyncIteratorProtocol {
        private var base: Base.AsyncIterator
        private var decoder: ServerSentEventDecoder
        private var ready: [ServerSentEvent] = []
        private var readyIndex = 0
        private var finished = false

        fileprivate init(base: Base.AsyncIterator, decoder: ServerSentEventDecoder) {
            self.base = base
            self.decoder = decoder
        }

        /// The next event, or `nil` at the end of the chunks.
        /// - Throws: The error of the base sequence, after the events completed before it.
        public mutating func next() async throws -> ServerSentEvent? {
            while readyIndex == ready.count {
                guard !finished else { return nil }
                ready.removeAll(keepingCapacity: true)
                readyIndex = 0
                guard let chunk = try await base.next() else {
                    finished = true
                    decoder.finish()
                    return nil
                }
                ready = decoder.decode(chunk)
            }
            defer { readyIndex += 1 }
            return ready[readyIndex]
        }
    }
}

extension ServerSentEventSequence: Sendable where Base: Sendable {}
