import Foundation
import Networking
import NetworkingHTTP

extension Harness {
    /// The event-stream decoder: the same bytes in any chunking give the same events, and no event's type or id
    /// holds a CR or LF (an id no NUL either), whatever the server sends.
    static func events(_ data: Data) {
        var whole = ServerSentEventDecoder()
        let expected = whole.decode(Data(data.dropFirst()))
        var pieces = ServerSentEventDecoder()
        var got: [ServerSentEvent] = []
        for chunk in chunks(data) { got += pieces.decode(chunk) }
        check(octets(got) == octets(expected), "the events do not depend on how the bytes were cut")
        check(FieldSyntax.equals(pieces.lastEventID, whole.lastEventID), "nor does the last event id")
        // Bytes: "\r\n" is one Character, equal to neither "\r" nor "\n".
        for event in got {
            check(!event.event.utf8.contains { $0 == 0x0D || $0 == 0x0A }, "an event type holds no line end")
            check(!event.id.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }, "an id holds no line end or NUL")
            check(!event.data.utf8.contains(0x0D), "event data joins lines with LF only")
            if let retry = event.retry { check(retry >= .zero, "a retry time is never negative") }
        }
    }

    /// The line splitter: the same lines in any chunking, none holding a line end, and the bytes between them kept.
    static func lines(_ data: Data) {
        var whole = LineDecoder()
        let body = Data(data.dropFirst())
        let expected = whole.decode(body) + whole.finish()
        var pieces = LineDecoder()
        var got: [String] = []
        for chunk in chunks(data) { got += pieces.decode(chunk) }
        got += pieces.finish()
        check(
            got.map { Array($0.utf8) } == expected.map { Array($0.utf8) },
            "the lines do not depend on how the bytes were cut")
        for line in got { check(!line.utf8.contains { $0 == 0x0D || $0 == 0x0A }, "a line holds no line end") }
    }

    /// Events as their bytes: `==` on strings would take U+037E for `;` and hide a difference.
    static func octets(_ events: [ServerSentEvent]) -> [[[UInt8]]] {
        events.map { [Array($0.event.utf8), Array($0.data.utf8), Array($0.id.utf8), Array("\($0.retry as Any)".utf8)] }
    }

    /// `Content-Type` with a charset, and a body read as text in it: an unknown charset is UTF-8, and text read
    /// as UTF-8 is exactly the bytes when they are UTF-8.
    static func charset(_ data: Data) {
        let (contentType, body) = pair(data)
        let encoding = String.encoding(fromContentType: contentType)
        var fields = HTTPFields()
        fields[.contentType] = contentType
        let response = HTTPResponse(status: 200, headerFields: fields)
        let bytes = Data(body.utf8)
        if let text = try? String(body: bytes, response: response), encoding == .utf8 {
            check(Data(text.utf8) == bytes, "a UTF-8 body reads back as its bytes")
        }
        let known: [String.Encoding] = [.utf8, .isoLatin1, .ascii, .utf16, .utf16LittleEndian, .utf16BigEndian]
        check(known.contains(encoding), "only the charsets the client knows are chosen")
    }
}
