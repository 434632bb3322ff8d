import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// `HedgingBehavior` against the fault server's `/slow-first`, whose first hit of a key takes seconds and later
    /// hits answer at once: a hedged GET gets the fast answer from the second hit, a POST is sent exactly once.
    @Suite struct FaultHedgingTests {
        struct SlowFirst: Decodable, Sendable {
            let attempt: Int
            let slow: Bool
        }

        private func client() async throws -> NetworkClient {
            let settings = try HedgingSettings(delay: .fixed(.milliseconds(200)))
            return try await FaultServer.client(behavior: .hedging(settings))
        }

        @Test func aSlowGETIsHedgedAndTheFastSecondHitAnswersLongBeforeTheFirst() async throws {
            let key = FaultServer.newKey("hedge-get")
            let started = ContinuousClock.now
            let answer = try await client().send(
                NetworkRequest<SlowFirst>(path: "/slow-first", query: Faults.query(key, ["ms": "3000"])))
            let took = ContinuousClock.now - started
            #expect(answer.attempt == 2)
            #expect(answer.slow == false)
            #expect(took < .milliseconds(1_500), "took \(took)")
            #expect(try await FaultServer.hits(key).count == 2)
        }

        @Test func aPOSTWithoutAnIdempotencyKeyIsSentExactlyOnce() async throws {
            let key = FaultServer.newKey("hedge-post")
            let answer = try await client().send(
                NetworkRequest<SlowFirst>(
                    .post, path: "/slow-first", query: Faults.query(key, ["ms": "600"]), body: .json(["n": 1])))
            #expect(answer.attempt == 1)
            #expect(answer.slow)
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func aPOSTWithAnIdempotencyKeyIsHedgedWithTheSameKeyAndBody() async throws {
            let key = FaultServer.newKey("hedge-keyed")
            let answer = try await client().send(
                NetworkRequest<SlowFirst>(
                    .post, path: "/slow-first", query: Faults.query(key, ["ms": "3000"]),
                    headers: ["Idempotency-Key": "order-42"], body: .json(["n": 1])))
            #expect(answer.attempt == 2)
            let hits = try await FaultServer.hits(key)
            #expect(hits.count == 2)
            #expect(hits.requests.map { $0.headers["idempotency-key"] } == ["order-42", "order-42"])
            #expect(hits.requests.map(\.body) == [#"{"n":1}"#, #"{"n":1}"#])
        }
    }
}
