import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// 1,000 concurrent calls through one breaker, with seeded random outcomes, cancellations and clock moves: the
/// circuit's books must balance at the end, which they would not if two updates of one circuit ever interleaved.
@Suite struct CircuitBreakerStressTests {
    enum Plan: CaseIterable {
        case success, serverError, clientError, cancelled, slowSuccess
    }

    @Test(arguments: [UInt64(1), 42, 2026])
    func thousandConcurrentCallsLeaveConsistentBooks(seed: UInt64) async throws {
        var generator = BehaviorFakes.SeededGenerator(seed: seed)
        let plans = (0..<1_000).map { _ in Plan.allCases.randomElement(using: &generator) ?? .success }
        let advances = (0..<1_000).map { _ in Int.random(in: 0..<10, using: &generator) == 0 }
        let clock = TestClock(mode: .manual)
        let store = InMemoryCircuitBreakerStore()
        let settings = try CircuitBreakerSettings(
            failureRatio: 0.3, minimumThroughput: 5, samplingWindow: .seconds(10), breakDuration: .seconds(1),
            halfOpenProbes: 2)
        let opened = LockedBox(0)
        let breaker = CircuitBreakerBehavior(
            settings: settings, store: store, clock: clock,
            onStateChange: { change in if change.to == .open { opened.withLock { $0 += 1 } } })
        let nextCalls = LockedBox(0)
        let outcomes = LockedBox<[String: Int]>([:])
        let request = BehaviorFakes.request

        let tasks = plans.indices.map { index in
            Task {
                if advances[index] { clock.advance(by: .milliseconds(300)) }
                let plan = plans[index]
                do {
                    _ = try await breaker.intercept(request, context: RequestContext()) { request in
                        nextCalls.withLock { $0 += 1 }
                        await Task.yield()
                        switch plan {
                        case .success: return BehaviorFakes.response(to: request)
                        case .slowSuccess:
                            for _ in 0..<5 { await Task.yield() }
                            return BehaviorFakes.response(to: request)
                        case .serverError: throw BehaviorFakes.unacceptable(request, status: 503)
                        case .clientError: throw BehaviorFakes.unacceptable(request, status: 404)
                        case .cancelled:
                            await BehaviorFakes.suspendUntilCancelled()
                            throw CancellationError()
                        }
                    }
                    outcomes.withLock { $0["ok", default: 0] += 1 }
                } catch is CircuitOpenError {
                    outcomes.withLock { $0["rejected", default: 0] += 1 }
                } catch {
                    outcomes.withLock { $0["failed", default: 0] += 1 }
                }
            }
        }
        for (index, task) in tasks.enumerated() where plans[index] == .cancelled { task.cancel() }
        for task in tasks { await task.value }

        let state = try #require(store.state(for: "api.example.test:443"))
        let counts = state.counts
        let seen = outcomes.current
        #expect(counts.allowed + counts.rejected == 1_000)
        #expect(counts.allowed == nextCalls.current)
        #expect(counts.rejected == seen["rejected", default: 0])
        #expect(counts.successes + counts.failures + counts.ignored == counts.allowed)
        #expect(seen.values.reduce(0, +) == 1_000)
        #expect(counts.opened == opened.current)
        #expect(state.probesInFlight == 0)
        #expect(state.probeSuccesses < settings.halfOpenProbes)
        let totals = state.windowTotals(at: clock.now())
        #expect(totals.successes >= 0 && totals.failures >= 0)
        #expect(counts.opened > 0, "the seeded mix must open the circuit at least once")
    }
}
