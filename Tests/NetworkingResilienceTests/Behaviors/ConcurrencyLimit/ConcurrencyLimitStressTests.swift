import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// 1,000 concurrent calls through one `ConcurrencyLimitBehavior` with random outcomes and cancellations: the limit
/// holds at every moment and every slot comes back.
@Suite struct ConcurrencyLimitStressTests {
    private struct Tally {
        var inFlight = 0
        var highest = 0
        var sent = 0
        var succeeded = 0
        var failed = 0
        var rejected = 0
        var cancelled = 0
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func aThousandCallsWithRandomOutcomesAndCancellationsLeaveConsistentState(seed: UInt64) async throws {
        // Given a limit of 4 with a queue of 600, and 1,000 calls that each succeed, fail or stall, some cancelled
        let store = InMemoryConcurrencyLimitStore()
        let behavior = ConcurrencyLimitBehavior(
            settings: try ConcurrencyLimitSettings(maximumInFlight: 4, maximumQueueLength: 600), store: store)
        let tally = LockedBox(Tally())
        var generator = BehaviorFakes.SeededGenerator(seed: seed)
        let plans = (0..<1_000).map { _ in
            (
                outcome: Int.random(in: 0..<3, using: &generator), yields: Int.random(in: 0..<4, using: &generator),
                cancelAfter: Bool.random(using: &generator) ? Int.random(in: 0..<8, using: &generator) : nil
            )
        }

        // When they all run at once
        await withTaskGroup(of: Void.self) { group in
            for plan in plans {
                let call = Task {
                    try await behavior.intercept(BehaviorFakes.request, context: RequestContext()) { request in
                        tally.withLock {
                            $0.inFlight += 1
                            $0.sent += 1
                            $0.highest = max($0.highest, $0.inFlight)
                        }
                        defer { tally.withLock { $0.inFlight -= 1 } }
                        for _ in 0..<plan.yields { await Task.yield() }
                        switch plan.outcome {
                        case 0: return BehaviorFakes.response(to: request)
                        case 1: throw BehaviorFakes.unacceptable(request, status: 503)
                        default:
                            await BehaviorFakes.suspendUntilCancelled()
                            throw CancellationError()
                        }
                    }
                }
                group.addTask {
                    if let cancelAfter = plan.cancelAfter {
                        for _ in 0..<cancelAfter { await Task.yield() }
                        call.cancel()
                    } else if plan.outcome == 2 {
                        // A stalling call that nobody cancels would hold its slot forever: cancel it late.
                        for _ in 0..<50 { await Task.yield() }
                        call.cancel()
                    }
                    let result = await call.result
                    tally.withLock {
                        switch result {
                        case .success: $0.succeeded += 1
                        case .failure(is CancellationError): $0.cancelled += 1
                        case .failure(is ConcurrencyLimitExceededError): $0.rejected += 1
                        case .failure: $0.failed += 1
                        }
                    }
                }
            }
        }

        // Then the limit held throughout, every call ended exactly once, and the store is empty again
        let final = tally.current
        #expect(final.highest <= 4)
        #expect(final.highest >= 1)
        #expect(final.inFlight == 0)
        #expect(final.succeeded + final.failed + final.rejected + final.cancelled == 1_000)
        #expect(final.sent <= 1_000 - final.rejected)
        #expect(store.activeKeys.isEmpty)
        #expect(store.withPartition("") { $0.permits } == ConcurrencyPermits())
    }
}
