import Foundation
import Networking
import Testing
import NetworkingTestSupport

@Suite struct StreamingSequenceTests {
    struct Broken: Error, Equatable {}

    static func chunks(_ pieces: [String], thenFail: Bool = false) -> AsyncThrowingStream<Data, any Error> {
        AsyncThrowingStream { continuation in
            for piece in pieces { continuation.yield(Data(piece.utf8)) }
            continuation.finish(throwing: thenFail ? Broken() : nil)
        }
    }

    @Test func linesSplitsAChunkStreamAndYieldsTheUnterminatedLastLine() async throws {
        var lines: [String] = []
        for try await line in Self.chunks(["a\r", "\nb", "c\n\n", "d"]).lines { lines.append(line) }
        #expect(lines == ["a", "bc", "", "d"])
    }

    @Test func linesRethrowsTheStreamErrorAfterTheLinesBeforeIt() async throws {
        var lines: [String] = []
        await #expect(throws: Broken.self) {
            for try await line in Self.chunks(["a\nb"], thenFail: true).lines { lines.append(line) }
        }
        #expect(lines == ["a"])
    }

    @Test func serverSentEventsDecodesAChunkStreamAndDropsTheUnfinishedEvent() async throws {
        var events: [ServerSentEvent] = []
        let stream = Self.chunks(["id: 1\nevent: t", "ick\ndata: a\r", "\n\r\ndata: b\n\n", "data: lost\n"])
        for try await event in stream.serverSentEvents { events.append(event) }
        #expect(events == [ServerSentEvent(event: "tick", data: "a", id: "1"), ServerSentEvent(data: "b", id: "1")])
    }

    @Test func serverSentEventsRethrowsTheStreamErrorAfterTheEventsBeforeIt() async throws {
        var events: [ServerSentEvent] = []
        await #expect(throws: Broken.self) {
            for try await event in Self.chunks(["data: a\n\ndata: b"], thenFail: true).serverSentEvents {
                events.append(event)
            }
        }
        #expect(events == [ServerSentEvent(data: "a")])
    }

    @Test func anEventSequenceCanStartFromALastEventID() async throws {
        var events: [ServerSentEvent] = []
        for try await event in ServerSentEventSequence(Self.chunks(["data: a\n\n"]), lastEventID: "9") {
            events.append(event)
        }
        #expect(events == [ServerSentEvent(data: "a", id: "9")])
    }
}
