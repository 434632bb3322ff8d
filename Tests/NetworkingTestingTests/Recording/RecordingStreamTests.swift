import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

@Suite struct RecordingStreamTests {
    static let events = ["id: 0\ndata: {\"n\": 0}\n\n", "id: 1\ndata: {\"n\": 1}\n\n", "id: 2\ndata: {\"n\": 2}\n\n"]

    /// A backend streaming the events in network-sized pieces that cut across them, each piece read 100 ms after
    /// the one before on `clock` (the clock moves when the reader asks for a piece).
    struct StreamingBackend: HTTPTransport {
        let clock: TestClock

        func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
            let joined = Data(RecordingStreamTests.events.joined().utf8)
            let pieces = LockedBox([joined.prefix(10), joined.dropFirst(10).prefix(30), joined.dropFirst(40)])
            let clock = self.clock
            let chunks = AsyncThrowingStream<Data, any Error>(unfolding: {
                guard let piece = pieces.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return nil }
                clock.advance(by: .milliseconds(100))
                return Data(piece)
            })
            let head = HTTPResponse(status: .ok, headerFields: [.contentType: "text/event-stream"], url: request.url)
            return (head, HTTPBody(once: chunks))
        }
    }

    static func streamingBackend(clock: TestClock) -> StreamingBackend { StreamingBackend(clock: clock) }

    @Test func anEventStreamIsRecordedAsItsEventsAndReplayedAsAStream() async throws {
        let folder = try FixtureFolder([:])
        let clock = TestClock()
        var options = RecordingOptions()
        options.recordsPacing = true
        let recorder = RecordingTransport(
            wrapping: Self.streamingBackend(clock: clock), directory: folder.url, mode: .recordAll, options: options,
            clock: clock)
        _ = try await exchange(recorder, recordingRequest(.get, "/events"))

        let files = filesUnder(folder.url)
        #expect(files["events.GET.events.txt"] == Data(Self.events.joined().utf8))
        let manifest = String(decoding: files["fixtures.json"] ?? Data(), as: UTF8.self)
        #expect(manifest.contains("\"chunks\" : [\n          22,\n          22,\n          22\n        ]"))

        options.replaysPacing = true
        let replayClock = TestClock()
        let replay = RecordingTransport(replaying: folder.url, options: options, clock: replayClock)
        let (head, body) = try await replay.send(recordingRequest(.get, "/events"))
        var received: [String] = []
        for try await chunk in body { received.append(String(decoding: chunk, as: UTF8.self)) }

        #expect(head.headerFields[.contentType] == "text/event-stream")
        #expect(received == Self.events)
        // The first event was complete when the second piece came, the second with the third.
        #expect(replayClock.sleeps == [.milliseconds(200), .milliseconds(100)])
    }

    /// A hand-edited recording whose chunk sizes cannot be summed without overflow, or whose pacing is no time of
    /// day, replays the answer whole and at once: such numbers trapped the process before (found by make fuzz's
    /// manifest harness, next to a delay past Int64 milliseconds).
    @Test(
        arguments: [
            (#""chunks" : [9223372036854775807, 9223372036854775807]"#, nil),
            (nil, #""pacing" : [1e300, 2e300, 3e300]"#),
        ] as [(String?, String?)])
    func impossibleChunksOrPacingReplayTheAnswerWholeAndAtOnce(chunks: String?, pacing: String?) async throws {
        let folder = try FixtureFolder([:])
        let clock = TestClock()
        var options = RecordingOptions()
        options.recordsPacing = true
        let recorder = RecordingTransport(
            wrapping: Self.streamingBackend(clock: clock), directory: folder.url, mode: .recordAll, options: options,
            clock: clock)
        _ = try await exchange(recorder, recordingRequest(.get, "/events"))
        let manifestURL = folder.url.appendingPathComponent("fixtures.json")
        var manifest = try String(contentsOf: manifestURL, encoding: .utf8)
        if let chunks {
            manifest = manifest.replacingOccurrences(
                of: #""chunks" : \[[^\]]*\]"#, with: chunks, options: .regularExpression)
        }
        if let pacing {
            manifest = manifest.replacingOccurrences(
                of: #""pacing" : \[[^\]]*\]"#, with: pacing, options: .regularExpression)
        }
        try manifest.write(to: manifestURL, atomically: true, encoding: .utf8)

        options.replaysPacing = true
        let replayClock = TestClock()
        let replay = RecordingTransport(replaying: folder.url, options: options, clock: replayClock)
        let (_, body) = try await replay.send(recordingRequest(.get, "/events"))
        var received = Data()
        for try await chunk in body { received.append(chunk) }
        #expect(received == Data(Self.events.joined().utf8))
        #expect(replayClock.sleeps.isEmpty)
    }

    @Test func withoutPacingAStreamReplaysAtOnceAndTheFolderHasNoTimes() async throws {
        let folder = try FixtureFolder([:])
        let clock = TestClock()
        let recorder = RecordingTransport(
            wrapping: Self.streamingBackend(clock: clock), directory: folder.url, mode: .recordAll, clock: clock)
        _ = try await exchange(recorder, recordingRequest(.get, "/events"))

        let manifest = String(decoding: filesUnder(folder.url)["fixtures.json"] ?? Data(), as: UTF8.self)
        #expect(!manifest.contains("pacing"))
        let replayClock = TestClock()
        let replay = RecordingTransport(replaying: folder.url, clock: replayClock)
        let client = NetworkClient(baseURL: URL(string: "https://api.test")!, transport: replay)
        var ids: [String] = []
        for try await event in try client.events(NetworkRequest<Data>(path: "/events"), clock: replayClock) {
            ids.append(event.id)
            if ids.count == 3 { break }  // replay would answer a reconnection with the same events again
        }
        #expect(ids == ["0", "1", "2"])
        #expect(replayClock.sleeps.isEmpty)
    }
}
