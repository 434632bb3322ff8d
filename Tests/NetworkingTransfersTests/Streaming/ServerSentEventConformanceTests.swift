import Foundation
import Networking
import Testing
import NetworkingTestSupport

/// The WHATWG HTML Standard, "Server-sent events": §9.2.5 (parsing an event stream) and §9.2.6 (interpreting it)
/// on ``ServerSentEventDecoder``, one row per rule, each fed whole, cut at every byte offset, and one byte at a
/// time. Listed in `Networking.docc/Conformance.md`.
@Suite struct ServerSentEventConformanceTests {
    typealias Event = ServerSentEvent

    struct Row: Sendable, CustomTestStringConvertible {
        let section: String
        let rule: String
        let input: [UInt8]
        let events: [Event]
        /// The decoder's last event ID after the stream ended.
        let lastEventID: String
        /// The decoder's reconnection time after the stream ended.
        let retry: Duration?
        var testDescription: String { "HTML \(section) \(rule)" }

        init(
            _ section: String, _ rule: String, _ input: String, _ events: [Event], lastEventID: String = "",
            retry: Duration? = nil
        ) {
            self.init(section, rule, bytes: Array(input.utf8), events, lastEventID: lastEventID, retry: retry)
        }

        init(
            _ section: String, _ rule: String, bytes: [UInt8], _ events: [Event], lastEventID: String = "",
            retry: Duration? = nil
        ) {
            (self.section, self.rule, self.input, self.events) = (section, rule, bytes, events)
            (self.lastEventID, self.retry) = (lastEventID, retry)
        }
    }

    static let rows: [Row] = [
        // §9.2.5 Parsing an event stream
        Row("§9.2.5", "a leading BOM is stripped", "\u{FEFF}data: a\n\n", [Event(data: "a")]),
        Row("§9.2.5", "only one leading BOM is stripped", "\u{FEFF}\u{FEFF}data: a\n\n", []),
        Row("§9.2.5", "a BOM after the start is not stripped", "data: a\n\n\u{FEFF}data: b\n\n", [Event(data: "a")]),
        Row("§9.2.5", "lines end with LF", "data: a\ndata: b\n\n", [Event(data: "a\nb")]),
        Row("§9.2.5", "lines end with CRLF", "data: a\r\ndata: b\r\n\r\n", [Event(data: "a\nb")]),
        Row("§9.2.5", "lines end with CR", "data: a\rdata: b\r\r", [Event(data: "a\nb")]),
        Row("§9.2.5", "line ends may be mixed", "data: a\r\ndata: b\rdata: c\n\n", [Event(data: "a\nb\nc")]),
        Row(
            "§9.2.5", "CR then LF is one line end, even split across chunks", "data: a\r\n\r\ndata: b\r\n\r\n",
            [Event(data: "a"), Event(data: "b")]),
        Row("§9.2.5", "LF then CR are two line ends", "data: a\n\rdata: b\n\n", [Event(data: "a"), Event(data: "b")]),
        Row("§9.2.5", "UTF-8 is decoded", "data: caf\u{E9} \u{1F600}\n\n", [Event(data: "caf\u{E9} \u{1F600}")]),
        Row(
            "§9.2.5", "invalid UTF-8 becomes U+FFFD", bytes: Array("data: a".utf8) + [0xFF] + Array("b\n\n".utf8),
            [Event(data: "a\u{FFFD}b")]),
        // §9.2.6 Interpreting an event stream: lines
        Row(
            "§9.2.6", "an empty line dispatches the event", "data: a\n\ndata: b\n\n",
            [Event(data: "a"), Event(data: "b")]),
        Row("§9.2.6", "a line starting with a colon is a comment", ": note\ndata: a\n:\n\n", [Event(data: "a")]),
        Row("§9.2.6", "the field name ends at the first colon", "data: a:b: c\n\n", [Event(data: "a:b: c")]),
        Row("§9.2.6", "the field name keeps its spaces", "data : a\n\n", []),
        Row("§9.2.6", "field names are case-sensitive", "Data: a\nDATA: b\n\n", []),
        Row("§9.2.6", "one leading space of the value is removed", "data: a\n\n", [Event(data: "a")]),
        Row("§9.2.6", "only one leading space is removed", "data:  a \n\n", [Event(data: " a ")]),
        Row("§9.2.6", "no space after the colon is fine", "data:a\n\n", [Event(data: "a")]),
        Row("§9.2.6", "a line without colon is a field with an empty value", "data\n\n", [Event(data: "")]),
        Row("§9.2.6", "unknown fields are ignored", "foo: bar\nretrying: 5\ndata: a\n\n", [Event(data: "a")]),
        // data
        Row("§9.2.6 data", "each data field appends its value and LF", "data: a\ndata: b\n\n", [Event(data: "a\nb")]),
        Row("§9.2.6 data", "empty data fields append LF", "data:\ndata:\n\n", [Event(data: "\n")]),
        Row("§9.2.6 dispatch step 3", "only the last LF is removed", "data: a\ndata:\n\n", [Event(data: "a\n")]),
        // event
        Row("§9.2.6 event", "event sets the type", "event: tick\ndata: a\n\n", [Event(event: "tick", data: "a")]),
        Row(
            "§9.2.6 event", "the last event field wins", "event: a\nevent: b\ndata: x\n\n",
            [Event(event: "b", data: "x")]),
        Row("§9.2.6 dispatch steps 5-6", "an empty type is message", "event:\ndata: a\n\n", [Event(data: "a")]),
        Row(
            "§9.2.6 dispatch step 7", "the type resets after each dispatch", "event: tick\ndata: a\n\ndata: b\n\n",
            [Event(event: "tick", data: "a"), Event(data: "b")]),
        // id
        Row(
            "§9.2.6 id", "id sets the last event ID", "id: 7\ndata: a\n\n", [Event(data: "a", id: "7")],
            lastEventID: "7"),
        Row(
            "§9.2.6 id", "the last event ID carries over to later events", "id: 7\ndata: a\n\ndata: b\n\n",
            [Event(data: "a", id: "7"), Event(data: "b", id: "7")], lastEventID: "7"),
        Row(
            "§9.2.6 id", "an id containing NUL is ignored", "id: 7\ndata: a\n\nid: x\u{0}y\ndata: b\n\n",
            [Event(data: "a", id: "7"), Event(data: "b", id: "7")], lastEventID: "7"),
        Row(
            "§9.2.6 id", "an empty id resets the last event ID", "id: 7\ndata: a\n\nid\ndata: b\n\n",
            [Event(data: "a", id: "7"), Event(data: "b")], lastEventID: ""),
        Row(
            "§9.2.6 dispatch step 1", "the ID is set even when nothing is dispatched", "id: 9\n\n", [], lastEventID: "9"
        ),
        Row(
            "§9.2.6 dispatch step 1", "the ID of an event never dispatched is not kept",
            "id: 1\ndata: a\n\nid: 2\ndata: b",
            [Event(data: "a", id: "1")], lastEventID: "1"),
        // retry
        Row("§9.2.6 retry", "digits set the reconnection time", "retry: 1500\n", [], retry: .milliseconds(1500)),
        Row("§9.2.6 retry", "zero is a reconnection time", "retry: 0\n", [], retry: .zero),
        Row(
            "§9.2.6 retry", "the latest valid retry wins", "retry: 10\nretry: 20\nretry: x\n", [],
            retry: .milliseconds(20)),
        Row("§9.2.6 retry", "a value with a non-digit is ignored", "retry: 15x\nretry: 1.5\nretry: 1e3\n", []),
        Row("§9.2.6 retry", "a sign is not a digit", "retry: -5\nretry: +5\n", []),
        Row("§9.2.6 retry", "a second leading space is not a digit", "retry:  100\n", []),
        Row("§9.2.6 retry", "an empty value is ignored", "retry:\nretry\n", []),
        Row(
            "§9.2.6 retry", "retry applies at once, without a dispatch", "retry: 250\ndata: lost", [],
            retry: .milliseconds(250)),
        // dispatch
        Row("§9.2.6 dispatch step 2", "an empty data buffer dispatches nothing", "event: tick\n\n:\n\n\n", []),
        Row(
            "§9.2.6 dispatch step 2", "and resets the type", "event: tick\n\ndata: a\n\n", [Event(data: "a")]),
        Row("§9.2.6 dispatch", "several empty lines dispatch once", "data: a\n\n\n\n", [Event(data: "a")]),
        Row("§9.2.6 end of stream", "an event without its empty line is discarded", "data: a\n", []),
        Row("§9.2.6 end of stream", "an unfinished line is discarded", "data: a\n\ndata: b", [Event(data: "a")]),
    ]

    @Test(arguments: rows) func eventStreamsAreInterpretedAsTheHTMLStandardSays(_ row: Row) {
        for cuts in LineDecoderTests.chunkings(of: row.input) {
            let (events, decoder) = ServerSentEventDecoderTests.decode(row.input, cuts: cuts)
            #expect(events == row.events, "cut at \(cuts)")
            #expect(decoder.lastEventID == row.lastEventID, "cut at \(cuts)")
            #expect(decoder.reconnectionTime == row.retry, "cut at \(cuts)")
        }
    }

    @Test func aReconnectionStartsANewStreamWhoseBOMIsStrippedAgainAndKeepsTheLastEventID() {
        // §9.2.3 (reestablish the connection: the last event ID string is kept) and §9.2.5 (each stream's BOM).
        var decoder = ServerSentEventDecoder()
        _ = decoder.decode(Data("id: 3\ndata: a\n\nevent: half\ndata: b".utf8))
        decoder.finish()
        #expect(decoder.decode(Data("\u{FEFF}data: c\n\n".utf8)) == [Event(data: "c", id: "3")])
    }
}
