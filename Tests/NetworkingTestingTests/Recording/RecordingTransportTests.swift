import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

@Suite struct RecordingTransportTests {
    @Test func aRecordedFolderReplaysWithTheFixtureTransportAsIs() async throws {
        let folder = try FixtureFolder([:])
        let backend = echoBackend()
        let recorder = RecordingTransport(wrapping: backend, directory: folder.url, mode: .recordMissing)
        let (live, liveBody) = try await exchange(recorder, recordingRequest(.get, "/countries/fr?b=2&a=1"))

        let fixtures = FixtureTransport(directory: folder.url)
        let (replayed, replayedBody) = try await exchange(fixtures, recordingRequest(.get, "/countries/fr?a=1&b=2"))

        #expect(replayed.status == live.status)
        #expect(replayed.headerFields["Cache-Control"] == "max-age=60")
        #expect(replayed.headerFields["Content-Type"] == "application/json")
        #expect(replayed.headerFields["X-Fixture-File"] == "countries/fr.GET.q-a=1_b=2-8e85be58.json")
        let liveValue = try JSONSerialization.jsonObject(with: liveBody) as? NSDictionary
        let replayedValue = try JSONSerialization.jsonObject(with: replayedBody) as? NSDictionary
        #expect(liveValue == replayedValue)
        #expect(backend.requestCount == 1)
    }

    @Test func replayOnlyNamesTheClosestRecordingsOfAMissingRequest() async throws {
        let folder = try FixtureFolder([:])
        let recorder = RecordingTransport(wrapping: echoBackend(), directory: folder.url, mode: .recordAll)
        for path in ["/countries/fr", "/countries/de", "/regions/europe", "/countries"] {
            _ = try await exchange(recorder, recordingRequest(.get, path))
        }

        let replay = RecordingTransport(replaying: folder.url)
        let client = NetworkClient(baseURL: URL(string: "https://api.test")!, transport: replay)
        let error = try await expectNetworkError { try await client.send(NetworkRequest<Data>(path: "/countries/xx")) }

        let recordingError = try #require(error?.underlyingError as? RecordingError)
        #expect(recordingError.kind == .notRecorded)
        #expect(recordingError.request == "GET /countries/xx")
        #expect(recordingError.closest == ["GET /countries/de", "GET /countries/fr", "GET /countries"])
        #expect(
            recordingError.description
                == "nothing recorded for GET /countries/xx in \(folder.url.path); "
                + "closest: GET /countries/de, GET /countries/fr, GET /countries")
    }

    @Test func recordMissingSendsOnlyWhatIsMissing() async throws {
        let folder = try FixtureFolder([:])
        let first = echoBackend()
        let recorder = RecordingTransport(wrapping: first, directory: folder.url, mode: .recordMissing)
        _ = try await exchange(recorder, recordingRequest(.get, "/a"))
        _ = try await exchange(recorder, recordingRequest(.get, "/b"))
        #expect(first.requestCount == 2)

        let second = echoBackend()
        let again = RecordingTransport(wrapping: second, directory: folder.url, mode: .recordMissing)
        _ = try await exchange(again, recordingRequest(.get, "/a"))
        _ = try await exchange(again, recordingRequest(.get, "/c"))
        _ = try await exchange(again, recordingRequest(.get, "/b"))

        #expect(second.requests.map(\.path) == ["/c"])
        #expect(again.upstreamRequestCount == 1)
        #expect(Set(filesUnder(folder.url).keys) == ["a.GET.json", "b.GET.json", "c.GET.json", "fixtures.json"])
    }

    @Test func recordMissingNeverReplacesAFileAndRecordAllSaysWhatItReplaced() async throws {
        let folder = try FixtureFolder(["a.GET.json": #"{"hand": "written"}"#])
        let recorder = RecordingTransport(wrapping: echoBackend(), directory: folder.url, mode: .recordMissing)
        let error = try await expectError(RecordingError.self) {
            try await exchange(recorder, recordingRequest(.get, "/a"))
        }
        #expect(error?.kind == .wouldOverwrite)
        #expect(error?.file == "a.GET.json")
        #expect(String(decoding: filesUnder(folder.url)["a.GET.json"] ?? Data(), as: UTF8.self).contains("hand"))

        let all = RecordingTransport(wrapping: echoBackend(), directory: folder.url, mode: .recordAll)
        _ = try await exchange(all, recordingRequest(.get, "/a"))
        #expect(all.overwrittenFiles == ["a.GET.json"])
    }

    @Test func aFolderThatCannotBeWrittenIsAnErrorNamingTheRequest() async throws {
        let folder = try FixtureFolder(["blocker": "a file where the folder should be"])
        let target = folder.url.appendingPathComponent("blocker/recordings")
        let recorder = RecordingTransport(wrapping: echoBackend(), directory: target, mode: .recordMissing)
        let client = NetworkClient(baseURL: URL(string: "https://api.test")!, transport: recorder)

        let error = try await expectNetworkError { try await client.send(NetworkRequest<Data>(path: "/countries/fr")) }

        let recordingError = try #require(error?.underlyingError as? RecordingError)
        #expect(recordingError.kind == .unwritable)
        #expect(recordingError.request == "GET /countries/fr")
        #expect(recordingError.file == "countries/fr.GET.json")
        #expect(recordingError.description.hasPrefix("cannot record GET /countries/fr: countries/fr.GET.json cannot"))
    }

    @Test func concurrentCallsWriteEveryFileWhole() async throws {
        let folder = try FixtureFolder([:])
        let backend = MockTransport { request in
            let size = 20_000
            let text = #"{"path": "\#(request.path)", "pad": "\#(String(repeating: "x", count: size))"}"#
            return (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), Data(text.utf8))
        }
        let recorder = RecordingTransport(wrapping: backend, directory: folder.url, mode: .recordMissing)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                group.addTask { _ = try await exchange(recorder, recordingRequest(.get, "/items/\(index % 20)")) }
            }
            try await group.waitForAll()
        }

        let files = filesUnder(folder.url)
        #expect(files.count == 41)
        #expect(files.keys.allSatisfy { !$0.contains(".tmp") })
        for (name, data) in files {
            #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "\(name) is not whole")
        }
        let replay = RecordingTransport(replaying: folder.url)
        for index in 0..<20 {
            for _ in 0..<2 {
                let (_, body) = try await exchange(replay, recordingRequest(.get, "/items/\(index)"))
                #expect(String(decoding: body, as: UTF8.self).contains("/items/\(index)\""))
            }
        }
    }
}
