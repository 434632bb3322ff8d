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
let baseURL = URL(string: "https://api.example.com/v1")!

/// The app's client, recording into `fixturesFolder` what the backend answers to requests not recorded yet.
func recordingClient(into fixturesFolder: URL) -> NetworkClient {
    let recorder = RecordingTransport(
        wrapping: DefaultTransport.shared, directory: fixturesFolder, mode: .recordMissing, basePath: "/v1")
    return NetworkClient(baseURL: baseURL, transport: recorder)
}

func checkForDrift(in fixturesFolder: URL) async -> DriftReport {
    let report = await DriftReport.check(
        directory: fixturesFolder, against: DefaultTransport.shared, baseURL: baseURL)
    print(report)
    // 1 of 12 recorded answers drifted:
    //   GET /alpha/fr (alpha/fr.GET.json): new key $.region; type of $.capital array -> string
    return report
}

// GettingStarted.md, signing in and out, on README's `API` (ReadmeSamplesTests.swift); in a function, so that
// `Session` is not DocCommentContext's.
func gettingStartedSignIn() -> (String, String) async throws -> Void {
struct Session: Decodable, Sendable { let token: String }

func signIn(user: String, password: String) async throws {
    let form = [URLQueryItem(name: "user", value: user), URLQueryItem(name: "password", value: password)]
    let session = try await API.client.send(
        NetworkRequest<Session>(.post, path: "/login", body: .form(form)), behavior: .without(.credentials))
    API.tokens.set(session.token)  // every later call sends it
}

func signOut() {
    API.tokens.set(nil)  // calls go without Authorization
}
signOut()
return signIn
}

// GettingStarted.md, logging to the app's logger with the app's own secrets redacted.
func gettingStartedLogging() -> LoggingBehavior {
let logging = LoggingBehavior(
    sink: LogSink { line in print(line) },  // the app's logger here
    redaction: Redaction(headerNames: ["X-API-Key"], queryParameterNames: ["signature"]))
return logging
}

// TestingYourAPILayer.md, what the behaviors report.
@Test func theSpinnerStopsAndTheKeyNeverReachesTheLog() async throws {
    let activity = InMemoryActivityCounterStore()
    let lines = HookTrace()  // a list of strings any task may append to
    let mock = MockTransport().stub(.get, "/items", .json("[]"))
    let client = NetworkClient(
        configuration: .init(
            baseURL: URL(string: "https://api.example.com/v1")!, transport: mock,
            behavior: CombinedBehavior([
                .activityCounter(store: activity),
                .logging(
                    to: LogSink { line in lines.append(line) }, redaction: Redaction(headerNames: ["X-API-Key"]),
                    headers: true),
                .headers(["X-API-Key": "k-123"]),
            ]),
            clock: TestClock()))

    _ = try await client.send(NetworkRequest<Data>(path: "/items"))

    #expect(activity.count == 0)  // every call has ended: the spinner is off
    #expect(lines.events.count == 2)  // the start line and the end line
    #expect(lines.events.allSatisfy { !$0.contains("k-123") })
}

// RequestsAndErrors.md, a path with a space.
// Both are GET /v1/files/Q3%20report.pdf on a client whose base URL is https://api.example.com/v1.
let quarterlyReport = NetworkRequest<Data>(path: "/files/Q3 report.pdf")
let sameReport = NetworkRequest<Data>(path: "/files/Q3%20report.pdf")

@Suite struct ArticleSamplesTests {
    @Test func theSignInSampleSetsAndClearsTheSharedToken() async throws {
        _ = gettingStartedSignIn()
        #expect(try await API.tokens.token() == nil)
        API.tokens.set("t0ken")
        #expect(try await API.tokens.token() == "t0ken")
        API.tokens.set(nil)
    }

    @Test func theLoggingSampleRedactsTheAppsOwnSecrets() {
        let redaction = gettingStartedLogging().redaction
        #expect(redaction.redactsHeader("X-API-Key"))
        #expect(redaction.queryParameterNames.contains("signature"))
    }

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
        let client = recordingClient(into: folder.url)
        let report = await checkForDrift(in: folder.url)
        #expect(client.configuration.transport is RecordingTransport)
        // Nothing was recorded in the folder yet: the report says its manifest cannot be read.
        #expect(report.hasDrift && report.description.contains("the manifest cannot be read"))
    }
}
