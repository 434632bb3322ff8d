import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `NetworkClient.events`: Server-Sent Events across reconnections on a `MockTransport`, waits on a `TestClock`.
@Suite struct NetworkClientEventsTests {
    private static let request = NetworkRequest<Data>(path: "/events")

    /// An event stream answer: `text/event-stream` chunks.
    static func sse(_ chunks: [Data], end: MockResponse.StreamEnd = .finish) -> MockResponse {
        .streamed(chunks, headers: ["Content-Type": "text/event-stream"], end: end)
    }

    @Test func reconnectsWithLastEventIDAfterTheRetryTimeAndYieldsEveryEventOnce() async throws {
        let first = Data("retry: 1500\nid: 1\ndata: one\n\nid: 2\nda".utf8)
        let firstEnd = Data("ta: two\n\n".utf8)
        let transport = MockTransport().stub(
            .get, "/events", Self.sse([first, firstEnd], end: .fail(TransportError(.connectionLost, "cut"))),
            Self.sse([Data("id: 3\ndata: three\n\n".utf8)]), Self.sse([]))
        let clock = TestClock()
        let client = try makeClient(transport: transport)
        var received: [String] = []
        for try await event in try client.events(Self.request, clock: clock, maximumReconnections: 1) {
            received.append("\(event.id):\(event.data)")
        }
        #expect(received == ["1:one", "2:two", "3:three"])
        let sent = transport.requests
        #expect(sent.count == 3)
        #expect(sent.allSatisfy { $0.headerFields[HTTPField.Name.accept] == "text/event-stream" })
        #expect(sent.map { $0.headerFields["Last-Event-ID"] } == [nil, "2", "3"])
        #expect(clock.sleeps == [.milliseconds(1500), .milliseconds(1500)])
    }

    @Test func aRefusedConnectionEndsTheSequenceWithItsErrorWithoutReconnecting() async throws {
        let transport = MockTransport().stub(.get, "/events", .status(503))
        let client = try makeClient(transport: transport)
        let error = try await expectNetworkError {
            for try await _ in try client.events(Self.request, clock: TestClock()) {}
        }
        #expect(error?.kind == .unacceptableStatus(503))
        #expect(transport.requestCount == 1)
    }

    @Test func aConnectionThatFailsOnTheNetworkIsRetriedAfterTheReconnectionTime() async throws {
        let transport = MockTransport().stub(
            .get, "/events", .failure(URLError(.cannotConnectToHost)),
            Self.sse([Data("id: 1\ndata: back\n\n".utf8)]), Self.sse([]))
        let clock = TestClock()
        let client = try makeClient(transport: transport, clock: clock)
        var received: [String] = []
        for try await event in try client.events(Self.request, maximumReconnections: 1) { received.append(event.data) }
        #expect(received == ["back"])
        #expect(transport.requestCount == 3)
        #expect(clock.sleeps.filter { $0 == ServerSentEventSource.defaultReconnectionTime }.count == 2)
    }

    @Test func theRequestsOwnAcceptIsKeptAndANegativeLimitIsRefused() async throws {
        let transport = MockTransport().stub(.get, "/events", Self.sse([Data("data: x\n\n".utf8)]))
        let client = try makeClient(transport: transport)
        let request = NetworkRequest<Data>(path: "/events", headers: ["Accept": "text/event-stream; q=1"])
        var count = 0
        for try await _ in try client.events(request, clock: TestClock(), maximumReconnections: 0) { count += 1 }
        #expect(count == 1)
        #expect(transport.requests.first?.headerFields[HTTPField.Name.accept] == "text/event-stream; q=1")
        #expect(throws: BehaviorSettingsError.self) { try client.events(request, maximumReconnections: -1) }
    }
}
