import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

/// Trailer fields through recording and replay: written to the manifest (scrubbed as headers are), served again
/// by the recorder in replay and by the fixture transport, in memory and streamed.
@Suite struct RecordingTrailersTests {
    static func backend() -> MockTransport {
        MockTransport()
            .stub(
                .get, "/export",
                MockResponse.streamed([Data("a".utf8), Data("b".utf8)], headers: [.contentType: "text/plain"])
                    .trailer("X-Checksum", "42").trailer("Authorization", "Bearer t0p"))
    }

    @Test func recordedTrailerFieldsAreWrittenScrubbedAndServedAgain() async throws {
        let folder = try FixtureFolder([:])
        let recorder = RecordingTransport(wrapping: Self.backend(), directory: folder.url, mode: .recordMissing)
        let (_, live) = try await recorder.send(recordingRequest(.get, "/export"))
        #expect(try await live.collect(upTo: 10) == Data("ab".utf8))
        #expect(live.trailerFields?["X-Checksum"] == "42", "the live answer keeps them")

        let manifest = String(decoding: try #require(filesUnder(folder.url)["fixtures.json"]), as: UTF8.self)
        #expect(manifest.contains(#""trailers""#))
        #expect(manifest.contains(#""X-Checksum" : "42""#))
        #expect(!manifest.contains("t0p"), "a secret in a trailer is scrubbed as in a header")

        for replay in [RecordingTransport(replaying: folder.url), FixtureTransport(directory: folder.url)]
            as [any HTTPTransport]
        {
            let (_, body) = try await replay.send(recordingRequest(.get, "/export"))
            #expect(try await body.collect(upTo: 10) == Data("ab".utf8))
            #expect(body.trailerFields?["X-Checksum"] == "42", "\(type(of: replay))")
            #expect(body.trailerFields?["Authorization"] == "<redacted>")
        }
    }

    @Test func aHandWrittenAnswerMayNameTrailersAndAWrongShapeIsRefused() async throws {
        let folder = try FixtureFolder([
            "fixtures.json": #"{"routes": {"GET /t": {"status": 200, "body": {"a": 1}, "trailers": {"X-Count": "1"}}}}"#
        ])
        let (_, body) = try await FixtureTransport(directory: folder.url).send(recordingRequest(.get, "/t"))
        _ = try await body.collect(upTo: 100)
        #expect(body.trailerFields?["X-Count"] == "1")
        let broken = try FixtureFolder([
            "fixtures.json": #"{"routes": {"GET /t": {"status": 200, "trailers": {"X-Count": 1}}}}"#
        ])
        let error = await #expect(throws: FixtureError.self) {
            _ = try await FixtureTransport(directory: broken.url).send(recordingRequest(.get, "/t"))
        }
        #expect(error?.description.contains("trailers must be an object of strings") == true)
    }
}

extension RecordingTrailersTests {
    @Test func recordingABodyThatWaitsOnTheResponseIsRefusedAtOnce() async throws {
        let folder = try FixtureFolder([:])
        let backend = Self.backend()
        let recorder = RecordingTransport(wrapping: backend, directory: folder.url, mode: .recordMissing)
        let (answers, writer) = AsyncThrowingStream.makeStream(of: Data.self)
        defer { writer.finish() }
        var body = HTTPBody(once: answers)
        body.waitsOnResponse = true
        let error = await #expect(throws: TransportError.self) {
            try await recorder.send(
                HTTPRequest(method: .post, url: URL(string: "https://api.test/export")!, body: body))
        }
        #expect(error?.message.contains("POST https://api.test/export: its body waits on the response") == true)
        #expect(backend.requestCount == 0)
    }
}
