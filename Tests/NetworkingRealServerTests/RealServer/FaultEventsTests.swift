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
    }
}
