import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

/// `FixtureTransport` serving files to `stream` and `download`.
@Suite struct FixtureStreamingTests {
    static func fixtures() throws -> (URL, Data) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fixture-stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("files"), withIntermediateDirectories: true)
        let payload = Data((0..<200_000).map { UInt8($0 % 253) })
        try payload.write(to: folder.appendingPathComponent("files/big.bin"))
        try Data(#"{"ok": true}"#.utf8).write(to: folder.appendingPathComponent("status.GET.json"))
        let manifest = #"{"routes": {"GET /files/big": {"file": "files/big.bin", "headers": {"ETag": "\"f1\""}}}}"#
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("fixtures.json"))
        return (folder, payload)
    }

    @Test func aFixtureFileStreamsInChunksWithItsLength() async throws {
        let (folder, payload) = try Self.fixtures()
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = try makeClient(transport: FixtureTransport(directory: folder, basePath: "/v1"))
        let streamed = try await client.stream(NetworkRequest<Data>(path: "/files/big"))
        #expect(streamed.response.headerFields[.contentLength] == "200000")
        var received = Data()
        var chunks = 0
        for try await chunk in streamed {
            received.append(chunk)
            chunks += 1
        }
        #expect(received == payload)
        #expect(chunks == 4)  // 64 KiB at a time
    }

    @Test func aFixtureFileDownloadsToDisk() async throws {
        let (folder, payload) = try Self.fixtures()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("out.bin")
        let client = try makeClient(transport: FixtureTransport(directory: folder, basePath: "/v1"))
        let result = try await client.download(NetworkRequest<Data>(path: "/files/big"), to: destination).value
        #expect(result.byteCount == 200_000)
        #expect(try Data(contentsOf: destination) == payload)
    }

    @Test func aJSONFixtureStreamsAsOneChunkAndAMissingOneNamesItsFile() async throws {
        let (folder, _) = try Self.fixtures()
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = try makeClient(transport: FixtureTransport(directory: folder, basePath: "/v1"))
        var text = ""
        for try await chunk in try await client.stream(NetworkRequest<Data>(path: "/status")) {
            text += String(decoding: chunk, as: UTF8.self)
        }
        #expect(text == #"{"ok": true}"#)
        let error = try await expectNetworkError { try await client.stream(NetworkRequest<Data>(path: "/nothing")) }
        #expect((error?.underlyingError as? FixtureError)?.file == "nothing.GET.json")
    }
}
