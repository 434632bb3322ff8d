// swift-format-ignore-file
import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

// Samples of the DocC articles, verbatim (indentation aside), so the compiler checks them;
// EverySampleIsCompiledTests checks that each article still shows exactly this code.

// GettingStarted.md, "Send requests" (the shared client is README's `API`, compiled in ReadmeSamplesTests.swift).
func gettingStartedSendExample() async throws {
let profile = try await API.client.send(NetworkRequest<Profile>(path: "/profiles/42"))
let created = try await API.client.send(
    NetworkRequest<Profile>(.post, path: "/profiles", body: .json(Profile(id: 0, name: "Ada"))),
    behavior: .idempotencyKey()
)
print(profile, created)
}

// RecordAndReplay.md, recording and the drift report.
func recordAndReplayExample(fixturesFolder: URL) async throws -> (NetworkClient, DriftReport) {
let baseURL = URL(string: "https://api.example.com/v1")!
let recorder = RecordingTransport(
    wrapping: DefaultTransport.shared, directory: fixturesFolder, mode: .recordMissing, basePath: "/v1")
let client = NetworkClient(baseURL: baseURL, transport: recorder)
let report = await DriftReport.check(
    directory: fixturesFolder, against: DefaultTransport.shared, baseURL: baseURL)
print(report)
// 1 of 12 recorded answers drifted:
//   GET /alpha/fr (alpha/fr.GET.json): new key $.region; type of $.capital array -> string
return (client, report)
}

// RequestsAndErrors.md, a path with a space.
// Both are GET /v1/files/Q3%20report.pdf on a client whose base URL is https://api.example.com/v1.
let quarterlyReport = NetworkRequest<Data>(path: "/files/Q3 report.pdf")
let sameReport = NetworkRequest<Data>(path: "/files/Q3%20report.pdf")

@Suite struct ArticleSamplesTests {
    @Test func aPathWithASpaceIsSentPercentEncodedAsTheArticleSays() async throws {
        let mock = MockTransport { request in (HTTPResponse(status: .ok, url: request.url), Data()) }
        let client = NetworkClient(baseURL: URL(string: "https://api.example.com/v1")!, transport: mock)
        _ = try await client.send(quarterlyReport)
        _ = try await client.send(sameReport)
        #expect(mock.requests.map(\.path) == ["/v1/files/Q3%20report.pdf", "/v1/files/Q3%20report.pdf"])
        let block = try DocumentSamples.swiftBlock(in: "Sources/Networking/Networking.docc/RequestsAndErrors.md") {
            $0.contains("quarterlyReport")
        }
        #expect(try DocumentSamples.isCompiled(block.components(separatedBy: "\n").dropFirst(2).joined(separator: "\n"), in: #filePath))
    }

    @Test func theRecordingSampleWrapsTheTransportAndReportsAFolderWithNothingRecorded() async throws {
        let folder = try FixtureFolder([:])
        let (client, report) = try await recordAndReplayExample(fixturesFolder: folder.url)
        #expect(client.configuration.transport is RecordingTransport)
        // Nothing was recorded in the folder yet: the report says its manifest cannot be read.
        #expect(report.hasDrift && report.description.contains("the manifest cannot be read"))
    }
}
