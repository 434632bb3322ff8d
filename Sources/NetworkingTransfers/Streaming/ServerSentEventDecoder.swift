import Foundation
import NetworkingHTTP
import NetworkingCore

/// Decodes a `text/event-stream` (Server-Sent Events) chunk by chunk: a pure, push-style value that follows the
/// WHATWG HTML "event stream interpretation" rules.
///
/// - A UTF-8 byte order mark at the start of the stream is skipped; lines end with LF, CRLF or a lone CR, even when
///   a line end is split across chunks.
/// - A line starting with `:` is a comment and is ignored. A line `name: value` sets a field (one space after the
///   colon is dropped); a line without a colon is a field with an empty value. Unknown fields are ignored.
/// - `data` appends its value and an LF to the event's data; `event` sets its type (an empty one means `"message"`); `id` sets the last event ID
///   (ignored if the value contains U+0000); `retry` sets ``reconnectionTime`` in milliseconds when the value is
///   ASCII digits only (otherwise, or if it overflows, it is ignored).
/// - A blank line dispatches the event, without the data's final LF, unless no `data` field was seen; the type
///   and data then reset, the last event ID carries over.
/// - An event without its closing blank line when the stream ends is discarded (``finish()``).
///
/// ```swift
/// var decoder = ServerSentEventDecoder()
/// let events = decoder.decode(Data("id: 7\nevent: tick\ndata: a\ndata: b\n\n".utf8))
/// // [ServerSentEvent(event: "tick", data: "a\nb", id: "7")]
/// ```
///
/// For a chunk stream use `AsyncSequence.serverSentEvents`; to reconnect with `Last-Event-ID`, use
/// ``ServerSentEventSource``.
public struct ServerSentEventDecoder: Sendable {
    private var splitter = LineSplitter()
    private var atStreamStart = true
    private var data: [UInt8] = []
    private var eventType = ""
    private var idBuffer = ""
    private var blockRetry: Duration?

    /// The last event ID: the value of the latest `id` field of a block that ended (empty if none). It survives
    /// ``finish()``, so that a reconnection can send it as `Last-Event-ID`.
    public private(set) var lastEventID = ""

    /// The reconnection time set by the latest valid `retry` field, or `nil` if the stream never set one. It
    /// survives ``finish()``.
    public private(set) var reconnectionTime: Duration?

    /// Creates a decoder at the start of a stream, with no last event ID.
    public init() {}

    /// Creates a decoder for a reconnection, which starts with the last event ID of the previous connection.
    /// - Parameter lastEventID: The ID sent as `Last-Event-ID`; events carry it until the stream sets another.
    public init(lastEventID: String) {
        self.lastEventID = lastEventID
        self.idBuffer = lastEventID
    }

    /// Feeds the next chunk of the stream.
    /// - Parameter chunk: The next bytes, of any size (empty chunks are allowed).
    /// - Returns: The events this chunk completes, in order.
    public mutating func decode(_ chunk: Data) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        var splitter = self.splitter
        self.splitter = LineSplitter()  // so that the buffer is not shared, hence not copied, while it grows
        splitter.push(chunk) { line in
            if let event = process(line) { events.append(event) }
        }
        self.splitter = splitter
        return events
    }

    /// Ends the current stream: an unfinished line and an event not yet closed by a blank line are discarded.
    ///
    /// ``lastEventID`` and ``reconnectionTime`` are kept, and the next chunk fed starts a new stream (whose byte
    /// order mark is skipped), as after a reconnection.
    public mutating func finish() {
        splitter.finish { _ in }
        atStreamStart = true
        data.removeAll()
        eventType = ""
        blockRetry = nil
        idBuffer = lastEventID
    }

    private mutating func process(_ rawLine: UnsafeBufferPointer<UInt8>) -> ServerSentEvent? {
        var line = rawLine[...]
        if atStreamStart {
            atStreamStart = false
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
        }
        guard let first = line.first else { return dispatch() }
        if first == UInt8(ascii: ":") { return nil }
        let name: Slice<UnsafeBufferPointer<UInt8>>
        var value: Slice<UnsafeBufferPointer<UInt8>>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            name = line[..<colon]
            value = line[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            name = line
            value = line[line.endIndex...]
        }
        switch name.count {
        case 4 where name.elementsEqual("data".utf8):
            data.append(contentsOf: value)
            data.append(0x0A)
        case 5 where name.elementsEqual("event".utf8):
            eventType = String(decoding: value, as: UTF8.self)
        case 2 where name.elementsEqual("id".utf8):
            if !value.contains(0) { idBuffer = String(decoding: value, as: UTF8.self) }
        case 5 where name.elementsEqual("retry".utf8):
            if let milliseconds = Self.digits(value) {
                reconnectionTime = .milliseconds(milliseconds)
                blockRetry = reconnectionTime
            }
        default:
            break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        lastEventID = idBuffer
        defer {
            data.removeAll(keepingCapacity: true)
            eventType = ""
            blockRetry = nil
        }
        guard !data.isEmpty else { return nil }
        let text = String(decoding: data.dropLast(), as: UTF8.self)
        return ServerSentEvent(
            event: eventType.isEmpty ? "message" : eventType, data: text, id: lastEventID, retry: blockRetry)
    }

    /// The value of a non-empty run of ASCII digits, or `nil` for anything else or an overflow.
    private static func digits(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int64? {
        guard !bytes.isEmpty else { return nil }
        var value: Int64 = 0
        for byte in bytes {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int64(byte - 0x30))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
        }
        return value
    }
}
