import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

/// The client-level rules of the HTML Standard §9.2.3 for `NetworkClient.events`: the `text/event-stream` check,
/// `204` ending the reconnections, the last event ID across reconnections. On a `MockTransport` and a `TestClock`.
/// Listed in `Networking.docc/Conformance.md`.
@Suite struct EventStreamConformanceTests {
    private static let request = NetworkRequest<Data>(path: "/events")

    struct TypeRow: Sendable, CustomTestStringConvertible {
        let rule: String
        let contentType: String?
        let accepted: Bool
        var testDescription: String { "§9.2.3 \(rule)" }
    }

    static let typeRows: [TypeRow] = [
        TypeRow(rule: "text/event-stream is an event stream", contentType: "text/event-stream", accepted: true),
        TypeRow(rule: "parameters are allowed", contentType: "text/event-stream; charset=utf-8", accepted: true),
        TypeRow(
            rule: "the media type in any case, with spaces", contentType: " Text/Event-Stream ;x=1", accepted: true),
        TypeRow(
            rule:
                "text/plain fails the connection: no event, no reconnection, an EventStreamContentTypeError naming the type",
            contentType: "text/plain", accepted: false),
        TypeRow(rule: "a prefix is not the type", contentType: "text/event-streams", accepted: false),
        TypeRow(rule: "no Content-Type fails the connection", contentType: nil, accepted: false),
    ]

    /// Without a reconnection limit: an accepted stream reconnects once, to a `204` that ends the events; a refused
    /// one is never reconnected.
    @Test(arguments: typeRows) func onlyAnEventStreamIsRead(row: TypeRow) async throws {
        let headers: HTTPFields = row.contentType.map { ["Content-Type": $0] } ?? [:]
        let transport = MockTransport().stub(
            .get, "/events", .streamed([Data("id: 1\ndata: one\n\n".utf8)], headers: headers),
            .streamed([], status: 204))
        let clock = TestClock()
        let client = try makeClient(transport: transport)
        var received: [String] = []
        var failure: NetworkError?
        do {
            for try await event in try client.events(Self.request, clock: clock) {
                received.append(event.data)
            }
        } catch let error as NetworkError {
            failure = error
        }
        if row.accepted {
            #expect(received == ["one"] && failure == nil)
            #expect(transport.requestCount == 2)
            #expect(clock.sleeps.count == 1)
        } else {
            #expect(received.isEmpty)
            #expect(transport.requestCount == 1)
            #expect(clock.sleeps.isEmpty)
            #expect(failure?.kind == .decoding)
            let wrong = failure?.underlyingError as? EventStreamContentTypeError
            #expect(wrong == EventStreamContentTypeError(received: row.contentType, requestName: "GET /events"))
            #expect(failure?.message.contains(row.contentType ?? "without a Content-Type") == true)
        }
    }

    @Test func aWrongTypeIsNeverRetriedEvenWithoutALimit() async throws {
        let transport = MockTransport().stub(
            .get, "/events", .streamed([Data("data: x\n\n".utf8)], headers: ["Content-Type": "text/plain"]))
        let clock = TestClock()
        let client = try makeClient(transport: transport)
        await #expect(throws: NetworkError.self) {
            for try await _ in try client.events(Self.request, clock: clock) {}
        }
        #expect(transport.requestCount == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test func a204EndsTheEventsWithoutReconnecting() async throws {
        let transport = MockTransport().stub(
            .get, "/events", NetworkClientEventsTests.sse([Data("id: 7\ndata: last\n\n".utf8)]),
            .streamed([], status: 204))
        let clock = TestClock()
        let client = try makeClient(transport: transport)
        var received: [String] = []
        for try await event in try client.events(Self.request, clock: clock) { received.append(event.data) }
        #expect(received == ["last"])
        #expect(transport.requestCount == 2)
        #expect(transport.requests.last?.headerFields["Last-Event-ID"] == "7")
        #expect(clock.sleeps == [ServerSentEventSource.defaultReconnectionTime])
    }

    @Test func theLastEventIDIsKeptAcrossReconnectionsWithoutIDs() async throws {
        let transport = MockTransport().stub(
            .get, "/events", NetworkClientEventsTests.sse([Data("id: 5\ndata: a\n\n".utf8)]),
            NetworkClientEventsTests.sse([Data("data: b\n\n".utf8)]),
            NetworkClientEventsTests.sse([Data("id\ndata: c\n\n".utf8)]), .streamed([], status: 204))
        let client = try makeClient(transport: transport)
        var received: [String] = []
        for try await event in try client.events(Self.request, clock: TestClock()) {
            received.append("\(event.id):\(event.data)")
        }
        #expect(received == ["5:a", "5:b", ":c"])
        // An empty id field resets the last event ID: the fourth connection sends none.
        #expect(transport.requests.map { $0.headerFields["Last-Event-ID"] } == [nil, "5", "5", nil])
    }
}
