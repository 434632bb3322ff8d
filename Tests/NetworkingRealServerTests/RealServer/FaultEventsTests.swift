import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

extension RealServerTests {
    /// `NetworkClient.events` against the fault server's `/sse`, which resumes after a `Last-Event-ID`.
    @Suite struct FaultEventsTests {
        @Test func aCutStreamResumesAfterItsLastEventIDAndNoEventIsLostOrRepeated() async throws {
            let key = FaultServer.newKey("sse")
            let client = try await FaultServer.client()
            let request = NetworkRequest<Data>(path: "/sse", query: Faults.query(key, ["count": "5", "cut": "2"]))
            var ids: [String] = []
            let clock = TestClock()
            for try await event in try client.events(request, clock: clock, maximumReconnections: 1) {
                #expect(event.event == "tick")
                ids.append(event.id)
            }
            #expect(ids == ["0", "1", "2", "3", "4"])
            let hits = try await FaultServer.hits(key)
            // The cut connection, the one that resumed after id 1, and one that found nothing after id 4.
            #expect(hits.count == 3)
            #expect(hits.requests.map { $0.headers["last-event-id"] } == [nil, "1", "4"])
            #expect(hits.requests.allSatisfy { $0.headers["accept"] == "text/event-stream" })
            #expect(clock.sleeps.count == 2)
        }

        /// HTML Standard §9.2.3 on the wire: a JSON answer fails the connection, once, naming its type.
        @Test func aResponseThatIsNotAnEventStreamFailsWithoutReconnecting() async throws {
            let key = FaultServer.newKey("sse-type")
            let client = try await FaultServer.client()
            let request = NetworkRequest<Data>(path: "/status/200", query: Faults.query(key, [:]))
            let clock = TestClock()
            var received = 0
            let error = try await expectNetworkError {
                for try await _ in try client.events(request, clock: clock) { received += 1 }
            }
            #expect(received == 0)
            #expect(error?.kind == .decoding)
            #expect((error?.underlyingError as? EventStreamContentTypeError)?.received == "application/json")
            #expect(try await FaultServer.hits(key).count == 1)
            #expect(clock.sleeps.isEmpty)
        }

        /// HTML Standard §9.2.3 on the wire: a `204` ends the events without a reconnection.
        @Test func a204EndsTheEventsWithoutReconnecting() async throws {
            let key = FaultServer.newKey("sse-204")
            let client = try await FaultServer.client()
            let clock = TestClock()
            var received = 0
            let request = NetworkRequest<Data>(path: "/204", query: Faults.query(key, [:]))
            for try await _ in try client.events(request, clock: clock) { received += 1 }
            #expect(received == 0)
            #expect(try await FaultServer.hits(key).count == 1)
            #expect(clock.sleeps.isEmpty)
        }
    }
}
