import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

/// A retried call says so: the logging behavior's end line and the `NetworkError` the caller gets name every
/// attempt and what it got, in order.
@Suite struct RetriesVisibleTests {
    static let retry: RetryBehavior = .retry(RetrySettings(maximumAttempts: 3, baseDelay: .zero), clock: TestClock())

    func client(_ mock: MockTransport, sink: RecordingSink) -> NetworkClient {
        NetworkClient(
            configuration: .init(
                baseURL: testBaseURL, transport: mock,
                behavior: CombinedBehavior([.logging(to: sink.sink, clock: TestClock()), Self.retry])))
    }

    @Test func aCallThatSucceedsAfterTwo503sLogsWhatEachAttemptGot() async throws {
        let mock = MockTransport().stub(.get, "/items", .status(503), .status(503), .json(#"{"ok": true}"#))
        let sink = RecordingSink()
        _ = try await client(mock, sink: sink).send(NetworkRequest<Data>(path: "/items"))
        let end = try #require(sink.lines.last)
        #expect(
            end.hasSuffix(
                "200 GET https://api.example.test/v1/items in 0 ms, 12 bytes, after 3 attempts: 503, 503, 200"),
            "\(end)")
    }

    @Test func aServerThatIsDownGivesAnErrorNamingEveryAttempt() async throws {
        let refused = MockResponse.failure(TransportError(.cannotConnect, "Connection refused"))
        let mock = MockTransport().stub(.get, "/items", refused)
        let sink = RecordingSink()
        let error = try await expectNetworkError {
            try await client(mock, sink: sink).send(NetworkRequest<Data>(path: "/items"))
        }
        let attempts = [AttemptOutcome](repeating: .failed(.transport(.cannotConnect)), count: 3)
        #expect(error?.attempts == attempts)
        let summary = "after 3 attempts: transport(cannotConnect), transport(cannotConnect), transport(cannotConnect)"
        #expect(
            error?.description.contains("for GET /items at https://api.example.test/v1/items \(summary): ") == true,
            "\(String(describing: error))")
        #expect(error?.localizedDescription.contains(summary) == true)
        #expect(sink.lines.last?.contains("in 0 ms, \(summary): transport(cannotConnect)") == true, "\(sink.lines)")
    }

    @Test func anUnacceptableStatusAfterRetriesNamesEachStatus() async throws {
        let mock = MockTransport().stub(.get, "/items", .status(503), .status(502), .status(503))
        let sink = RecordingSink()
        let error = try await expectNetworkError {
            try await client(mock, sink: sink).send(NetworkRequest<Data>(path: "/items"))
        }
        #expect(error?.attempts == [.status(503), .status(502), .status(503)])
        #expect(error?.description.contains("after 3 attempts: 503, 502, 503") == true)
    }

    @Test func oneAttemptAddsNothingToTheTexts() async throws {
        let mock = MockTransport().stub(.get, "/items", .status(404))
        let sink = RecordingSink()
        let error = try await expectNetworkError {
            try await client(mock, sink: sink).send(NetworkRequest<Data>(path: "/items"))
        }
        #expect(error?.attempts == [.status(404)])
        #expect(error?.description.contains("attempts") == false)
        #expect(sink.lines.allSatisfy { !$0.contains("attempts") })
    }

    @Test func aRequestRefusedBeforeAnyIOHasOneRefusedAttempt() async throws {
        var request = NetworkRequest<Data>(path: "/items")
        request.headers["X-Bad"] = "a\r\nb"
        let error = try await expectNetworkError {
            try await client(MockTransport(), sink: RecordingSink()).send(request)
        }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.attempts.allSatisfy { $0 == .failed(.invalidRequest) } == true)
    }
}
