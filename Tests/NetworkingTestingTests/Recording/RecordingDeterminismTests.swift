import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

@Suite struct RecordingDeterminismTests {
    /// A backend whose answers mean the same every time but differ in volatile headers and JSON key order.
    static func restlessBackend() -> MockTransport {
        let calls = LockedBox(0)
        return MockTransport { request in
            let call = calls.withLock { count in
                count += 1
                return count
            }
            let members = [#""name": "France""#, #""code": "fr""#, #""area": 551695"#, #""tags": ["eu", "euro"]"#]
            let ordered = call.isMultiple(of: 2) ? members : members.reversed()
            let headers: HTTPFields = [
                .contentType: "application/json", "Date": "Thu, 26 Nov 2026 02:\(10 + call):00 GMT",
                "Age": "\(call)", "X-Request-ID": UUID().uuidString, "Content-Length": "123",
                "Cache-Control": "max-age=60",
            ]
            let body = "{" + ordered.joined(separator: ", ") + "}"
            return (HTTPResponse(status: .ok, headerFields: headers, url: request.url), Data(body.utf8))
        }
    }

    static func recordAll(into folder: URL, options: RecordingOptions = RecordingOptions()) async throws {
        let recorder = RecordingTransport(
            wrapping: restlessBackend(), directory: folder, mode: .recordAll, options: options)
        for path in ["/countries/fr", "/countries/fr", "/search?b=2&a=1", "/", "/countries/fr"] {
            _ = try await exchange(recorder, recordingRequest(.get, path))
        }
    }

    @Test func aSecondRecordingOfTheSameBackendMakesAnEmptyDiff() async throws {
        let first = try FixtureFolder([:])
        let second = try FixtureFolder([:])
        try await Self.recordAll(into: first.url)
        try await Self.recordAll(into: second.url)

        let firstFiles = filesUnder(first.url)
        #expect(firstFiles == filesUnder(second.url))
        #expect(
            Set(firstFiles.keys) == [
                "countries/fr.GET.json", "countries/fr.GET.2.json", "countries/fr.GET.3.json", "index.GET.json",
                "search.GET.q-a=1_b=2-8e85be58.json", "fixtures.json",
            ])

        // Recording again over the first folder replaces its files with the same bytes.
        try await Self.recordAll(into: first.url)
        #expect(filesUnder(first.url) == firstFiles)
    }

    @Test func bodiesArePrettySortedJSONAndVolatileHeadersAreDroppedUnlessKept() async throws {
        let folder = try FixtureFolder([:])
        var options = RecordingOptions()
        options.keptHeaderNames = ["Age"]
        try await Self.recordAll(into: folder.url, options: options)

        let files = filesUnder(folder.url)
        let body = String(decoding: files["index.GET.json"] ?? Data(), as: UTF8.self)
        #expect(body.hasPrefix("{\n  \"area\" : 551695,\n  \"code\" : \"fr\""))
        let manifest = String(decoding: files["fixtures.json"] ?? Data(), as: UTF8.self)
        #expect(manifest.contains(#""Cache-Control" : "max-age=60""#))
        #expect(manifest.contains(#""Age" : "#))
        for dropped in ["Date", "X-Request-ID", "Content-Length"] {
            #expect(!manifest.contains("\"\(dropped)\""), "\(dropped) was written")
        }
    }

    @Test func aBinaryBodyIsAFileBesideTheManifestReplayedByteForByte() async throws {
        let folder = try FixtureFolder([:])
        let bytes = Data((0..<300).map { UInt8($0 % 256) })
        let backend = MockTransport { _ in
            (HTTPResponse(status: .ok, headerFields: [.contentType: "image/png"]), bytes)
        }
        let recorder = RecordingTransport(wrapping: backend, directory: folder.url, mode: .recordAll)
        _ = try await exchange(recorder, recordingRequest(.get, "/flags/fr.png"))

        #expect(filesUnder(folder.url)["flags/fr.png.GET.bin"] == bytes)
        let (head, body) = try await exchange(
            FixtureTransport(directory: folder.url), recordingRequest(.get, "/flags/fr.png"))
        #expect(body == bytes)
        #expect(head.headerFields[.contentType] == "image/png")
    }
}
