// swift-format-ignore-file
import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

// The recording example of README.md, verbatim (indentation aside), so the compiler checks it; the suite below
// checks that README.md still shows exactly this code, and runs it on a mock backend in place of the network.

func recordThenCheck(fixturesFolder: URL) async throws -> (NetworkClient, DriftReport) {
    let recorder = RecordingTransport(
        wrapping: DefaultTransport.shared, directory: fixturesFolder, mode: .recordMissing, basePath: "/v1")
    let client = NetworkClient(baseURL: URL(string: "https://api.example.com/v1")!, transport: recorder)
    // Tests replay the folder offline: RecordingTransport(replaying: fixturesFolder, basePath: "/v1") or FixtureTransport.
    let report = await DriftReport.check(
        directory: fixturesFolder, against: DefaultTransport.shared, baseURL: URL(string: "https://api.example.com/v1")!)
    return (client, report)
}

@Suite struct ReadmeRecordingSampleTests {
    @Test func theRecordingExampleInReadmeIsCompiledHere() throws {
        let block = try DocumentSamples.swiftBlock(in: "README.md") { $0.contains("let recorder = RecordingTransport(") }
        #expect(DocumentSamples.lines(of: block).count == 9)
        #expect(try DocumentSamples.isCompiled(block, in: #filePath), "README.md's recording example is not the code compiled here")
    }

    @Test func theWorkflowRecordsMissingRequestsReplaysOfflineAndReportsNoDrift() async throws {
        let folder = try FixtureFolder([:])
        let backend = MockTransport().stub(.get, "/items", .json(#"[{"id": 1}]"#))
        let recorder = RecordingTransport(wrapping: backend, directory: folder.url, mode: .recordMissing, basePath: "/v1")
        let client = NetworkClient(baseURL: URL(string: "https://api.example.com/v1")!, transport: recorder)
        _ = try await client.send(NetworkRequest<Data>(path: "/items"))
        _ = try await client.send(NetworkRequest<Data>(path: "/items"))  // a second call: recorded as the next answer
        #expect(backend.requestCount == 2)

        let offline = NetworkClient(
            baseURL: URL(string: "https://api.example.com/v1")!, transport: RecordingTransport(replaying: folder.url, basePath: "/v1"))
        #expect(String(decoding: try await offline.send(NetworkRequest<Data>(path: "/items")), as: UTF8.self).contains("\"id\""))

        let report = await DriftReport.check(directory: folder.url, against: backend, baseURL: URL(string: "https://api.example.com/v1")!)
        #expect(report.fixtures.count == 2)
        #expect(!report.hasDrift)
    }
}
