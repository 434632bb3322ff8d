// swift-format-ignore-file
import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

// StreamingAndTransfers.md's streaming sample, verbatim (indentation aside), run against a mock.
func printTheChunks(client: NetworkClient) async throws {
    let streamed = try await client.stream(NetworkRequest<Data>(path: "/events"))
    print(streamed.response.status)
    for try await chunk in streamed {
        print("\(chunk.count) bytes")
    }
}

// StreamingAndTransfers.md's event-stream sample.
func showNotifications(client: NetworkClient) async throws {
    let events = try client.events(NetworkRequest<Data>(path: "/notifications"))
    for try await event in events {
        print(event.event, event.data)
    }
}

@Suite struct StreamingSamplesTests {
    static func readme() throws -> String {
        let root = DocumentSamples.root
        return try String(contentsOf: root.appendingPathComponent("Sources/Networking/Networking.docc/StreamingAndTransfers.md"), encoding: .utf8)
    }

    static func appearsHere(_ block: String) throws -> Bool {
        let sample = DocumentSamples.lines(of: block)
        let here = DocumentSamples.lines(of: try String(contentsOfFile: #filePath, encoding: .utf8))
        return !sample.isEmpty && here.indices.contains { start in
            start + sample.count <= here.count && Array(here[start..<start + sample.count]) == sample
        }
    }

    @Test func theStreamingSampleInReadmeIsCompiledHereAndRuns() async throws {
        let block = try #require(
            try Self.readme().components(separatedBy: "```swift\n").first { $0.contains("let streamed = ") }?
                .components(separatedBy: "\n```").first)
        #expect(try Self.appearsHere(block), "README.md's streaming sample is not the code compiled here")
        let mock = MockTransport().stub(.get, "/events", .streamed([Data("a".utf8), Data("bc".utf8)]))
        try await printTheChunks(client: try makeClient(transport: mock))
        #expect(mock.requestCount == 1)
    }

    @Test func theEventStreamSampleReadsEachEvent() async throws {
        let block = try DocumentSamples.swiftBlock(in: "Sources/Networking/Networking.docc/StreamingAndTransfers.md") {
            $0.contains("client.events(")
        }
        #expect(try Self.appearsHere(block), "the event-stream sample is not the code compiled here")
        let mock = MockTransport().stub(
            .get, "/notifications",
            .streamed([Data("event: tick\ndata: a\n\n".utf8)], headers: ["Content-Type": "text/event-stream"]),
            .status(204))
        try await showNotifications(client: try makeClient(transport: mock, clock: TestClock()))
        #expect(mock.requestCount == 2)  // the stream, then a reconnection answered 204: the end
    }

    @Test func thePluginsStreamTimerSampleSeesTheEnd() async throws {
        let mock = MockTransport().stub(.get, "/events", .streamed([Data("abc".utf8)]))
        let streamed = try await makeClient(transport: mock, behavior: StreamTimer()).stream(
            NetworkRequest<Data>(path: "/events"))
        for try await _ in streamed {}
        #expect(mock.requestCount == 1)
    }
}

// StreamingAndTransfers.md's download sample, verbatim (indentation aside).
func downloadTheImage(client: NetworkClient, to destination: URL) async throws -> DownloadResult {
    let call = client.download(NetworkRequest<Data>(path: "/files/big.iso"), to: destination)
    for await step in call.progress {
        print(step)
    }
    let result = try await call.value
    return result
}

@Suite struct DownloadSamplesTests {
    @Test func theDownloadSampleInReadmeIsCompiledHereAndRuns() async throws {
        let block = try #require(
            try StreamingSamplesTests.readme().components(separatedBy: "```swift\n")
                .first { $0.contains("let call = client.download(") }?.components(separatedBy: "\n```").first)
        #expect(try StreamingSamplesTests.appearsHere(block), "README.md's download sample is not the code compiled here")
        let mock = MockTransport().stub(.get, "/files/big.iso", .data(Data("iso".utf8)))
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("sample-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: destination) }
        let result = try await downloadTheImage(client: try makeClient(transport: mock), to: destination)
        #expect(result.byteCount == 3)
        #expect(try Data(contentsOf: destination) == Data("iso".utf8))
    }
}
