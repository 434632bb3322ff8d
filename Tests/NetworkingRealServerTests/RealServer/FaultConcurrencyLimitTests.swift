import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// `ConcurrencyLimitBehavior` against the fault server's `/concurrent-ms/N`, which counts the requests of a key
    /// in progress on the server side: the limit holds on the wire, queued calls all get through, and an overflow
    /// sends nothing.
    @Suite struct FaultConcurrencyLimitTests {
        struct Concurrent: Decodable, Sendable {
            let in_flight: Int
            let max_in_flight: Int
        }

        @Test func tenCallsWithALimitOfTwoNeverHaveMoreThanTwoInProgressOnTheServer() async throws {
            // Given a client limited to 2 calls in flight and 10 calls that each take 300 ms on the server
            let key = FaultServer.newKey("limit")
            let settings = try ConcurrencyLimitSettings(maximumInFlight: 2, maximumQueueLength: 20)
            let client = try await FaultServer.client(behavior: .concurrencyLimit(settings))
            let request = NetworkRequest<Concurrent>(path: "/concurrent-ms/300", query: Faults.query(key))
            // When they are all sent at once
            let answers = try await withThrowingTaskGroup(of: Concurrent.self) { group in
                for _ in 0..<10 { group.addTask { try await client.send(request) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            // Then all 10 reached the server, never more than 2 at a time, and 2 did run together
            #expect(answers.count == 10)
            #expect(try await FaultServer.hits(key).count == 10)
            #expect(answers.map(\.max_in_flight).max() == 2)
            #expect(answers.allSatisfy { $0.in_flight <= 2 })
        }

        @Test func anOverflowingCallFailsFastAndIsNeverSent() async throws {
            // Given one slot, no queue, and a call holding the slot on the server
            let busy = FaultServer.newKey("limit-busy")
            let overflow = FaultServer.newKey("limit-overflow")
            let settings = try ConcurrencyLimitSettings(maximumInFlight: 1, maximumQueueLength: 0)
            let client = try await FaultServer.client(behavior: .concurrencyLimit(settings))
            let holder = Task {
                try await client.send(
                    NetworkRequest<Concurrent>(path: "/concurrent-ms/1500", query: Faults.query(busy)))
            }
            try await Faults.waitForHits(busy, atLeast: 1)
            // When another call comes
            let started = ContinuousClock.now
            let error = try await expectNetworkError {
                try await client.send(
                    NetworkRequest<Concurrent>(path: "/concurrent-ms/0", query: Faults.query(overflow)))
            }
            // Then it fails at once with the typed error, and the server never saw it
            #expect(ContinuousClock.now - started < .milliseconds(500))
            #expect(error?.kind == .behavior("ConcurrencyLimitBehavior"))
            #expect(error?.underlyingError is ConcurrencyLimitExceededError)
            #expect(try await FaultServer.hits(overflow).count == 0)
            _ = try await holder.value
            #expect(try await FaultServer.hits(busy).count == 1)
        }
    }
}
