import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An `Idempotency-Key` behavior reaches a `HedgingBehavior` wherever it is given: its placement (`callSetup`) is
/// outside hedging's. Through a client over a mock transport whose first answer is a 503 (a failure worth another
/// attempt, so a hedge goes out at once).
@Suite struct HedgingPlacementTests {
    /// A transport answering 503 to its first request and 200 afterwards, counting requests.
    private func transport(_ sends: LockedBox<Int>) -> MockTransport {
        MockTransport { request in
            let number = sends.withLock {
                $0 += 1
                return $0
            }
            return (HTTPResponse(status: .init(code: number == 1 ? 503 : 200), url: request.url), Data())
        }
    }

    private let settings: HedgingSettings
    init() throws { settings = try HedgingSettings(delay: .fixed(.seconds(30))) }

    @Test func anIdempotencyKeyBehaviorBeforeHedgingMakesAPOSTHedgeable() async throws {
        let sends = LockedBox(0)
        let client = try makeClient(
            transport: transport(sends), behavior: CombinedBehavior([.idempotencyKey(), .hedging(settings)]))
        _ = try await client.send(NetworkRequest<Data>(.post, path: "/orders", body: .json(["n": 1])))
        #expect(sends.current == 2)
    }

    @Test func aPerRequestIdempotencyKeyBehaviorReachesAClientWideHedging() async throws {
        let sends = LockedBox(0)
        let client = try makeClient(transport: transport(sends), behavior: .hedging(settings))
        _ = try await client.send(
            NetworkRequest<Data>(.post, path: "/orders", body: .json(["n": 1])), behavior: .idempotencyKey())
        #expect(sends.current == 2)
    }

    @Test func anIdempotencyKeyGivenAfterHedgingStillComesFirst() async throws {
        let sends = LockedBox(0)
        let client = try makeClient(
            transport: transport(sends), behavior: CombinedBehavior([.hedging(settings), .idempotencyKey()]))
        _ = try await client.send(NetworkRequest<Data>(.post, path: "/orders", body: .json(["n": 1])))
        #expect(sends.current == 2)
    }

    @Test func withoutAKeyAPOSTIsSentOnce() async throws {
        let sends = LockedBox(0)
        let client = try makeClient(transport: transport(sends), behavior: .hedging(settings))
        let error = try await expectNetworkError {
            try await client.send(NetworkRequest<Data>(.post, path: "/orders", body: .json(["n": 1])))
        }
        #expect(error?.kind == .unacceptableStatus(503))
        #expect(sends.current == 1)
    }
}
