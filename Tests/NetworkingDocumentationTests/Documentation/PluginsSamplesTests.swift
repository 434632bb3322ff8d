// swift-format-ignore-file
import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Every Swift sample of Plugins.md, verbatim (indentation aside), so the compiler checks them; the suite at the
// end checks that each sample in Plugins.md still appears here.


func recommendedOrderSample() throws -> NetworkClient {
    let tokens = InMemoryTokenStore("token-from-login")
    let client = NetworkClient(
        baseURL: URL(string: "https://api.example.com/v1")!,
        behavior: CombinedBehavior([
            .activityCounter { isBusy in print(isBusy ? "busy" : "idle") },
            .backgroundTask(),
            .logging(),
            .retry(),
            .authorization(.bearer, store: tokens),
            .headers(["Accept": "application/json"]),
        ])
    )
    return client
}

func signIn(client: NetworkClient, form: [URLQueryItem]) async throws -> Data {
    // The login call must not carry the (absent) token, and must not be retried.
    try await client.send(
        NetworkRequest<Data>(.post, path: "/login", body: .form(form)),
        behavior: CombinedBehavior([.without(AuthorizationBehavior.self), .without(RetryBehavior.self)])
    )
}

struct APIVersionHeader: RequestBehavior {
    var additionalHeaders: [String: String] { ["API-Version": "2"] }
}

struct Timing: RequestBehavior {
    let report: @Sendable (String, Duration) -> Void

    func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        let clock = context.clock  // the call's clock: a TestClock in tests
        let start = clock.now()
        defer { report(context.requestName, clock.now() - start) }
        return try await next(request)
    }
}

struct APIKeyHeader: RequestBehavior {
    let key: @Sendable () async throws -> String

    func modify(request: HTTPRequest, context: RequestContext) async throws -> HTTPRequest {
        var request = request
        request.headerFields[sensitive: "X-API-Key"] = try await key()
        return request
    }
}

struct LegacySigner: RequestBehavior {
    let sign: @Sendable (URLRequest) -> String  // your existing signing code

    func modify(request: HTTPRequest, context: RequestContext) async throws -> HTTPRequest {
        var request = request
        guard let legacy = request.urlRequest else { return request }
        request.headerFields[sensitive: "X-Signature"] = sign(legacy)
        return request
    }
}

@Test func apiKeyHeaderIsSetOnEveryAttempt() async throws {
    let behavior = APIKeyHeader(key: { "k-123" })
    let request = HTTPRequest(url: URL(string: "https://api.example.com/v1/items")!)
    let sent = try await behavior.modify(request: request, context: RequestContext())
    #expect(sent.headerFields["X-API-Key"] == "k-123")
    #expect(sent.headerFields.isSensitive("X-API-Key"))
}

@Test func timingReportsTheCallsDurationOnItsClock() async throws {
    let clock = TestClock()
    let log = HookTrace()
    let mock = MockTransport().stub(.get, "/items", .json("[]"))
    let timing = Timing { name, duration in log.append("\(name) took \(duration)") }
    let request = HTTPRequest(url: URL(string: "https://api.example.com/v1/items")!)
    let context = RequestContext(requestName: "GET /items", clock: clock)
    _ = try await timing.intercept(request, context: context) { request in
        clock.advance(by: .milliseconds(250))  // the server takes 250 ms, in virtual time
        return try await mock.send(request)  // a fake next: the mock answers and records
    }
    #expect(log.events == ["GET /items took 0.25 seconds"])
    #expect(mock.requestCount == 1)
}

@Test func timingWrapsTheWholeCall() async throws {
    let log = HookTrace()
    let mock = MockTransport().stub(.get, "/items", .json("[]"))
    let client = NetworkClient(
        baseURL: URL(string: "https://api.example.com/v1")!, transport: mock,
        behavior: CombinedBehavior([
            Timing { name, _ in log.append("timed \(name)") }, HookTraceBehavior("inner", log: log),
        ]))
    _ = try await client.send(NetworkRequest<Data>(path: "/items"))
    #expect(log.events == ["inner.modify", "inner.beforeSend", "inner.afterSuccess(200)", "timed GET /items"])
}

// Plugins.md's "Against recorded traffic", on the folder this target ships (Recorded: a backend recorded answering
// 503, then 200).
// The folder recorded from the backend, shipped with the test target: resources: [.copy("Recorded")].
@Test func retryGetsPastTheRecorded503() async throws {
    let recordedFolder = try #require(Bundle.module.url(forResource: "Recorded", withExtension: nil))
    let clock = TestClock()
    let client = NetworkClient(
        baseURL: URL(string: "https://api.example.com/v1")!,
        transport: RecordingTransport(replaying: recordedFolder, basePath: "/v1"),
        behavior: .retry(clock: clock))
    let items = try await client.send(NetworkRequest<[String]>(path: "/items"))
    #expect(items == ["a", "b"])
    #expect(clock.sleeps.count == 1)
}

func migratedCalls() -> (RetryBehavior, NetworkRequest<Data>) {
    let settings = RetrySettings(maximumAttempts: 2)
    let delete = NetworkRequest<Data>(Networking.HTTPMethod.delete, path: "/items/1")
    return (.retry(settings), delete)
}

@Suite struct PluginsSamplesTests {
    /// Lines without indentation and blank lines, so a sample matches whatever it is nested in.
    static func normalized(_ text: Substring) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    @Test func everySampleInPluginsMarkdownIsCompiledHere() throws {
        let root = DocumentSamples.root
        let markdown = try String(contentsOf: root.appendingPathComponent("Plugins.md"), encoding: .utf8)
        let here = DocumentSamples.lines(of: try String(contentsOfFile: #filePath, encoding: .utf8))
        let blocks = markdown.components(separatedBy: "```swift\n").dropFirst().map {
            $0.components(separatedBy: "\n```").first ?? ""
        }
        #expect(blocks.count == 12)
        for block in blocks {
            let lines = DocumentSamples.lines(of: block)
            let found = here.indices.contains { start in
                start + lines.count <= here.count && Array(here[start..<start + lines.count]) == lines
            }
            #expect(found, "Plugins.md sample not compiled here:\n\(block)")
        }
    }

    @Test func theRecommendedOrderBuildsSixBehaviors() throws {
        let behavior = try #require(try recommendedOrderSample().configuration.behavior as? CombinedBehavior)
        #expect(behavior.behaviors.count == 6)
        #expect(behavior.behaviors.first is ActivityCounterBehavior)
        #expect(behavior.behaviors[3] is RetryBehavior)
    }

    @Test func signInOptsOutOfAuthorizationAndRetry() async throws {
        let mock = MockTransport().stub(.post, "/login", .serviceUnavailable(retryAfter: 0), .json("{}"))
        let client = NetworkClient(
            configuration: .init(
                baseURL: URL(string: "https://api.example.com/v1")!, transport: mock,
                behavior: CombinedBehavior([.retry(clock: TestClock()), .authorization(.bearer) { "t" }])))
        let form = [URLQueryItem(name: "u", value: "a")]
        let error = try await expectNetworkError { try await signIn(client: client, form: form) }
        #expect(error?.kind == .unacceptableStatus(503))
        #expect(mock.recordedRequests.count == 1)
        #expect(mock.lastRequest?.header("Authorization") == nil)
    }

    @Test func theLegacySignerSeesTheRequestAsAURLRequestAndItsHeaderIsSensitive() async throws {
        let signer = LegacySigner { legacy in
            "\(legacy.httpMethod ?? "GET") \(legacy.url?.path ?? "") \(legacy.value(forHTTPHeaderField: "X-Tenant") ?? "")"
        }
        var request = HTTPRequest(method: .post, url: URL(string: "https://api.example.com/v1/items")!)
        request.headerFields["X-Tenant"] = "acme"
        let signed = try await signer.modify(request: request, context: RequestContext())
        #expect(signed.headerFields["X-Signature"] == "POST /v1/items acme")
        #expect(signed.headerFields.isSensitive("X-Signature"))
    }

    @Test func theMigrationSampleNamesOurTypesThroughTheModule() {
        let (retry, delete) = migratedCalls()
        #expect(retry.settings.maximumAttempts == 2)
        #expect(delete.method == .delete)
    }

    @Test func apiVersionHeaderAddsItsHeader() {
        #expect(APIVersionHeader().additionalHeaders == ["API-Version": "2"])
    }
}

// "Behaviors and streamed bodies"
struct StreamTimer: RequestBehavior {
    func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        let (response, body) = try await next(request)
        body.onTermination { termination in
            print("\(context.requestName): \(termination.byteCount) bytes")
        }
        return (response, body)
    }
}
