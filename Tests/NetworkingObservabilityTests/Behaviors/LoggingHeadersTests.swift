import Foundation
import Networking
import NetworkingTesting
import NetworkingTestSupport
import Testing

/// `.logging(headers: true)` sits outside the authorization behavior by placement, so its start line cannot show
/// the `Authorization` header yet: it said `headers: none` though one was sent. Each line now says which headers it
/// shows: the start line those it was handed, the end line those that left the client (redacted).
@Suite struct LoggingHeadersTests {
    private func client(_ sink: RecordingSink, eachAttempt: Bool = false, transport: MockTransport) -> NetworkClient {
        NetworkClient(
            configuration: .init(
                baseURL: URL(string: "https://api.example.test/v1")!, transport: transport,
                behavior: CombinedBehavior([
                    .logging(to: sink.sink, headers: true, eachAttempt: eachAttempt),
                    .authorization(.bearer) { "t0ken-AAAA1111" },
                ]),
                clock: TestClock()))
    }

    @Test func theStartLineSaysInnerBehaviorsComeLaterAndTheEndLineShowsTheHeadersAsSent() async throws {
        let sink = RecordingSink()
        let mock = MockTransport().stub(.get, "/me", .json(#"{"id":1}"#))
        _ = try await client(sink, transport: mock).send(NetworkRequest<Data>(path: "/me"))
        let lines = sink.lines
        #expect(lines.count == 2)
        let start = try #require(lines.first)
        #expect(start.hasSuffix("GET https://api.example.test/v1/me headers before inner behaviors: none"), "\(start)")
        let end = try #require(lines.last)
        #expect(end.contains(#" sent headers: Authorization="<redacted>" response headers: "#), "\(end)")
        #expect(!lines.joined().contains("t0ken-AAAA1111"))
    }

    @Test func aFailedCallShowsTheHeadersItWasSentWith() async throws {
        let sink = RecordingSink()
        let mock = MockTransport().stub(.get, "/me", .status(404))
        _ = try? await client(sink, transport: mock).send(NetworkRequest<Data>(path: "/me"))
        let end = try #require(sink.lines.last)
        #expect(end.contains(#" sent headers: Authorization="<redacted>" response headers: "#), "\(end)")
    }

    @Test func eachAttemptShowsTheCredentialAlreadyAndTheClientsDefaultAcceptAsSent() async throws {
        struct Me: Decodable { let id: Int }
        let sink = RecordingSink()
        let mock = MockTransport().stub(.get, "/me", .json(#"{"id":1}"#))
        _ = try await client(sink, eachAttempt: true, transport: mock).send(NetworkRequest<Me>(path: "/me"))
        let start = try #require(sink.lines.first)
        #expect(start.hasSuffix(#"headers before inner behaviors: Authorization="<redacted>""#), "\(start)")
        let end = try #require(sink.lines.last)
        #expect(end.contains(#"sent headers: Accept="application/json", Authorization="<redacted>""#), "\(end)")
    }
}
