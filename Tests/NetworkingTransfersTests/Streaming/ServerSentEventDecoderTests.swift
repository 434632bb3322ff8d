import Foundation
import Networking
import Testing
import NetworkingTestSupport

@Suite struct ServerSentEventDecoderTests {
    typealias Event = ServerSentEvent

    /// Feeds `input` cut at `cuts` and returns the events, the decoder's last event ID and reconnection time.
    static func decode(_ input: [UInt8], cuts: [Int]) -> (events: [Event], decoder: ServerSentEventDecoder) {
        var decoder = ServerSentEventDecoder()
        var events: [Event] = []
        var start = 0
        for cut in cuts + [input.count] {
            events += decoder.decode(Data(input[start..<cut]))
            start = cut
        }
        decoder.finish()
        return (events, decoder)
    }

    static let table: [(String, [Event])] = [
        ("data: hello\n\n", [Event(data: "hello")]),
        ("data:hello\n\n", [Event(data: "hello")]),
        ("data:  two spaces\n\n", [Event(data: " two spaces")]),
        ("data: a\ndata: b\n\n", [Event(data: "a\nb")]),
        ("data\n\n", [Event(data: "")]),
        ("data:\ndata:\n\n", [Event(data: "\n")]),
        ("event: tick\ndata: 1\n\n", [Event(event: "tick", data: "1")]),
        ("event:\ndata: 1\n\n", [Event(data: "1")]),
        ("event: tick\n\ndata: 1\n\n", [Event(data: "1")]),
        ("id: 7\ndata: a\n\ndata: b\n\n", [Event(data: "a", id: "7"), Event(data: "b", id: "7")]),
        ("id: 7\ndata: a\n\nid\ndata: b\n\n", [Event(data: "a", id: "7"), Event(data: "b", id: "")]),
        ("id: 7\ndata: a\n\nid: x\u{0}y\ndata: b\n\n", [Event(data: "a", id: "7"), Event(data: "b", id: "7")]),
        ("retry: 1500\ndata: a\n\n", [Event(data: "a", retry: .milliseconds(1500))]),
        ("retry: 15x\ndata: a\n\n", [Event(data: "a")]),
        ("retry: -5\ndata: a\n\n", [Event(data: "a")]),
        ("retry:\ndata: a\n\n", [Event(data: "a")]),
        (": comment\ndata: a\n\n", [Event(data: "a")]),
        (":\n\n", []),
        ("\u{FEFF}data: bom\n\n", [Event(data: "bom")]),
        ("\u{FEFF}\u{FEFF}data: x\n\n", []),
        ("data: a\r\n\r\ndata: b\r\rdata: c\n\n", [Event(data: "a"), Event(data: "b"), Event(data: "c")]),
        ("unknown: x\ndata: a\n\n", [Event(data: "a")]),
        ("Data: a\n\n", []),
        ("data: a:b: c\n\n", [Event(data: "a:b: c")]),
        ("data: unfinished\n", []),
        ("data: unfinished", []),
        ("event: e\n\n\n\n", []),
        ("data: caf\u{E9}\n\n", [Event(data: "caf\u{E9}")]),
    ]

    @Test(arguments: table)
    func decodesEveryChunking(input: String, expected: [Event]) {
        let bytes = Array(input.utf8)
        for cuts in LineDecoderTests.chunkings(of: bytes) {
            #expect(Self.decode(bytes, cuts: cuts).events == expected, "cut at \(cuts)")
        }
    }

    @Test func theLastEventIDAndReconnectionTimeSurviveTheEndOfTheStream() {
        let (_, decoder) = Self.decode(Array("retry: 250\nid: 42\ndata: a\n\nid: 43\ndata: lost".utf8), cuts: [])
        #expect(decoder.lastEventID == "42")
        #expect(decoder.reconnectionTime == .milliseconds(250))
    }

    @Test func aBlankLineSetsTheLastEventIDEvenWithoutData() {
        var decoder = ServerSentEventDecoder()
        #expect(decoder.decode(Data("id: 9\n\n".utf8)) == [])
        #expect(decoder.lastEventID == "9")
    }

    @Test func aRetryValueTooLargeForSixtyFourBitsIsIgnored() {
        var decoder = ServerSentEventDecoder()
        _ = decoder.decode(Data("retry: 10\n\nretry: 99999999999999999999999\n\n".utf8))
        #expect(decoder.reconnectionTime == .milliseconds(10))
    }

    @Test func afterFinishTheNextStreamStartsFreshButKeepsTheLastEventID() {
        var decoder = ServerSentEventDecoder()
        _ = decoder.decode(Data("id: 1\ndata: a\n\nevent: half\ndata: b".utf8))
        decoder.finish()
        let events = decoder.decode(Data("\u{FEFF}data: c\n\n".utf8))
        #expect(events == [Event(data: "c", id: "1")])
    }

    @Test func aDecoderForAReconnectionStartsWithTheGivenLastEventID() {
        var decoder = ServerSentEventDecoder(lastEventID: "41")
        #expect(decoder.lastEventID == "41")
        #expect(decoder.decode(Data("data: a\n\n".utf8)) == [Event(data: "a", id: "41")])
    }
}
