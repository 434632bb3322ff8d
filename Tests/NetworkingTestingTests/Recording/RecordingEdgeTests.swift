import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

@Suite struct RecordingEdgeTests {
    /// A backend answering `pieces` as separate chunks of an `application/octet-stream` body.
    struct ChunkedBackend: HTTPTransport {
        let pieces: [Data]

        func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
            let pieces = pieces
            let chunks = AsyncThrowingStream<Data, any Error> { continuation in
                for piece in pieces { continuation.yield(piece) }
                continuation.finish()
            }
            let head = HTTPResponse(status: .ok, headerFields: [.contentType: "application/octet-stream"])
            return (head, HTTPBody(once: chunks))
        }
    }

    @Test func aBodyOverTheLimitIsAnErrorAndNothingIsWritten() async throws {
        let folder = try FixtureFolder([:])
        var options = RecordingOptions()
        options.maximumBodySize = 10
        let recorder = RecordingTransport(
            wrapping: ChunkedBackend(pieces: [Data(count: 8), Data(count: 8)]), directory: folder.url,
            mode: .recordAll, options: options)

        let error = try await expectError(RecordingError.self) {
            try await exchange(recorder, recordingRequest(.get, "/big"))
        }

        #expect(error?.kind == .tooLarge)
        #expect(error?.description == "cannot record GET /big: the response body is larger than 10 bytes")
        #expect(filesUnder(folder.url).isEmpty)
    }

    @Test func aBrokenManifestIsAnErrorNamingIt() async throws {
        let folder = try FixtureFolder(["fixtures.json": "{"])
        let recorder = RecordingTransport(wrapping: echoBackend(), directory: folder.url, mode: .recordMissing)

        let error = try await expectError(RecordingError.self) {
            try await exchange(recorder, recordingRequest(.get, "/a"))
        }

        #expect(error?.kind == .invalidManifest)
        #expect(error?.file == "fixtures.json")
        #expect(error?.description.hasPrefix("cannot record or replay GET /a: the manifest in ") == true)
    }

    @Test func withRecordsChunksAnyStreamedBodyReplaysInItsChunks() async throws {
        let folder = try FixtureFolder([:])
        let pieces = [Data("first ".utf8), Data("second ".utf8), Data("third".utf8)]
        var options = RecordingOptions()
        options.recordsChunks = true
        let recorder = RecordingTransport(
            wrapping: ChunkedBackend(pieces: pieces), directory: folder.url, mode: .recordAll, options: options)
        _ = try await exchange(recorder, recordingRequest(.get, "/download"))

        let (_, body) = try await RecordingTransport(replaying: folder.url, options: options)
            .send(recordingRequest(.get, "/download"))
        var received: [Data] = []
        for try await chunk in body { received.append(chunk) }

        #expect(received == pieces)
        #expect(filesUnder(folder.url)["download.GET.bin"] == Data("first second third".utf8))
    }

    @Test func theDriftCheckSendsTheGivenHeadersAndTheStoredRequestBody() async throws {
        let folder = try FixtureFolder([:])
        let backend = MockTransport { _ in
            (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), Data(#"{"ok": true}"#.utf8))
        }
        let recorder = RecordingTransport(wrapping: backend, directory: folder.url, mode: .recordAll)
        _ = try await exchange(recorder, recordingRequest(.post, "/orders", body: Data(#"{"item": 7}"#.utf8)))

        let report = await DriftReport.check(
            directory: folder.url, against: backend, baseURL: URL(string: "https://api.test")!,
            headers: ["X-API-Key": "drift-key"], sendingUnsafeMethods: true)

        #expect(!report.hasDrift)
        let sent = try #require(backend.requests.last)
        #expect(sent.method == .post)
        #expect(sent.headerFields["X-API-Key"] == "drift-key")
        #expect(sent.body.data == Data("{\n  \"item\" : 7\n}\n".utf8))
    }
}
