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

@Suite struct ArticleSamplesTests {
    @Test func theRecordingSampleWrapsTheTransportAndReportsAFolderWithNothingRecorded() async throws {
        let folder = try FixtureFolder([:])
        let (client, report) = try await recordAndReplayExample(fixturesFolder: folder.url)
        #expect(client.configuration.transport is RecordingTransport)
        // Nothing was recorded in the folder yet: the report says its manifest cannot be read.
        #expect(report.hasDrift && report.description.contains("the manifest cannot be read"))
    }
}
