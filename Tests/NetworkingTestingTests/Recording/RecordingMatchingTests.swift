import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

@Suite struct RecordingMatchingTests {
    /// A backend answering `{"call": n}` with n counting its calls.
    static func countingBackend() -> MockTransport {
        let calls = LockedBox(0)
        return MockTransport { request in
            let call = calls.withLock { count in
                count += 1
                return count
            }
            let body = request.body.data.map { String(decoding: $0, as: UTF8.self) } ?? ""
            let text = #"{"call": \#(call), "sent": "\#(body.replacingOccurrences(of: "\"", with: "'"))"}"#
            return (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), Data(text.utf8))
        }
    }

    static func call(_ transport: any HTTPTransport, _ request: HTTPRequest) async throws -> Int {
        let (_, body) = try await exchange(transport, request)
        let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        return object?["call"] as? Int ?? -1
    }

    @Test func queryOrderDoesNotMatter() async throws {
        let folder = try FixtureFolder([:])
        let recorder = RecordingTransport(wrapping: Self.countingBackend(), directory: folder.url, mode: .recordAll)
        #expect(try await Self.call(recorder, recordingRequest(.get, "/search?name=japan&full=true")) == 1)
        #expect(try await Self.call(recorder, recordingRequest(.get, "/search?name=peru")) == 2)

        let replay = RecordingTransport(replaying: folder.url)
        #expect(try await Self.call(replay, recordingRequest(.get, "/search?full=true&name=japan")) == 1)
        #expect(try await Self.call(replay, recordingRequest(.get, "/search?name=peru")) == 2)
        await #expect(throws: RecordingError.self) {
            try await exchange(replay, recordingRequest(.get, "/search?name=chile"))
        }
    }

    @Test func repeatedRequestsAreASequenceReplayedInOrderTheLastRepeating() async throws {
        let folder = try FixtureFolder([:])
        let recorder = RecordingTransport(wrapping: Self.countingBackend(), directory: folder.url, mode: .recordAll)
        for expected in 1...3 {
            #expect(try await Self.call(recorder, recordingRequest(.get, "/ticket")) == expected)
        }

        for transport: any HTTPTransport in [
            RecordingTransport(replaying: folder.url), FixtureTransport(directory: folder.url),
        ] {
            var seen: [Int] = []
            for _ in 1...4 { seen.append(try await Self.call(transport, recordingRequest(.get, "/ticket"))) }
            #expect(seen == [1, 2, 3, 3])
        }
    }

    @Test func withBodyMatchingEachBodyGetsItsOwnAnswer() async throws {
        let folder = try FixtureFolder([:])
        var options = RecordingOptions()
        options.matchesBody = true
        let recorder = RecordingTransport(
            wrapping: Self.countingBackend(), directory: folder.url, mode: .recordAll, options: options)
        let japan = recordingRequest(.post, "/search", body: Data(#"{"name": "japan"}"#.utf8))
        let peru = recordingRequest(.post, "/search", body: Data(#"{"name": "peru"}"#.utf8))
        #expect(try await Self.call(recorder, japan) == 1)
        #expect(try await Self.call(recorder, peru) == 2)

        let replay = RecordingTransport(replaying: folder.url, options: options)
        #expect(try await Self.call(replay, peru) == 2)
        #expect(try await Self.call(replay, japan) == 1)
        let chile = recordingRequest(.post, "/search", body: Data(#"{"name": "chile"}"#.utf8))
        let error = try await expectError(RecordingError.self) { try await exchange(replay, chile) }
        #expect(error?.closest == ["POST /search"])
        #expect(filesUnder(folder.url)["search.POST.request.json"] == Data("{\n  \"name\" : \"japan\"\n}\n".utf8))
    }
}
