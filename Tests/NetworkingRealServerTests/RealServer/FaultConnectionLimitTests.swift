import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// The transport's own connection limit per host (`maximumConnectionsPerHost`), counted by the fault server's
    /// `/concurrent-ms/N`: calls beyond it wait their turn (in libcurl's case in the transport, before the engine
    /// gives them a receive buffer), every waiting call gets through, and a waiting call that is cancelled ends at
    /// once without ever reaching the server or holding up the line.
    @Suite struct FaultConnectionLimitTests {
        /// The fault server's count of a key's requests in progress.
        typealias Concurrent = FaultConcurrencyLimitTests.Concurrent

        @Test func callsBeyondTheLimitWaitTheirTurnAndACancelledOneLeavesTheLine() async throws {
            // Given a transport with two connections to the host and ten calls of 200 ms each at once
            let key = FaultServer.newKey("connection-limit")
            let cancelledKey = FaultServer.newKey("connection-limit-cancelled")
            let client = try await FaultServer.client(transport: TestTransport.make(maximumConnectionsPerHost: 2))
            let request = NetworkRequest<Concurrent>(path: "/concurrent-ms/200", query: Faults.query(key))
            let waiting = NetworkRequest<Concurrent>(path: "/concurrent-ms/200", query: Faults.query(cancelledKey))
            // When they run, and three more calls join the line and are cancelled while it is still full
            let (answers, cancelledOutcomes) = try await withThrowingTaskGroup(of: Concurrent.self) { group in
                for _ in 0..<10 { group.addTask { try await client.send(request) } }
                // Real time: once two calls are at the server, the other eight wait (about 800 ms of line ahead).
                let start = ContinuousClock.now
                while try await FaultServer.hits(key).count < 2, ContinuousClock.now - start < .seconds(10) {
                    try await Task.sleep(for: .milliseconds(10))
                }
                let cancelled = (0..<3).map { _ in Task { try await client.send(waiting) } }
                try await Task.sleep(for: .milliseconds(50))
                for task in cancelled { task.cancel() }
                let cancelledAt = ContinuousClock.now
                var outcomes: [String] = []
                for task in cancelled {
                    do {
                        _ = try await task.value
                        outcomes.append("answered")
                    } catch is CancellationError {
                        outcomes.append("cancelled")
                    }
                }
                // At once: well before the eight calls ahead of them (about 800 ms) could have been served.
                #expect(ContinuousClock.now - cancelledAt < .milliseconds(500))
                return (try await group.reduce(into: []) { $0.append($1) }, outcomes)
            }
            // Then the ten all got through, never more than two at a time on the server
            #expect(answers.count == 10)
            #expect(answers.map(\.max_in_flight).max() == 2)
            #expect(try await FaultServer.hits(key).count == 10)
            // And the cancelled calls ended as cancelled, and none of them reached the server
            #expect(cancelledOutcomes == ["cancelled", "cancelled", "cancelled"])
            #expect(try await FaultServer.hits(cancelledKey).count == 0)
            // And the line is free again (no place left taken): one more call is answered, alone on the server
            let after = try await client.send(
                NetworkRequest<Concurrent>(
                    path: "/concurrent-ms/0", query: Faults.query(FaultServer.newKey("after")), timeout: .seconds(5)))
            #expect(after.in_flight == 1)
        }
    }
}
