import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// 1,000 concurrent hedged calls with random attempt outcomes and cancellations, on an automatic `TestClock` (every
/// delay passes at once, so hedges race their first attempts): no call starts more attempts than allowed, none
/// returns while one of its attempts still runs, and a `CancellationError` reaches only cancelled callers.
@Suite struct HedgingStressTests {
    private struct Tally {
        var calls = 0
        var tooManyAttempts = 0
        var attemptsOutlivingTheCall = 0
        var strayCancellations = 0
        var succeeded = 0
        var failed = 0
        var cancelled = 0
    }

    @Test(arguments: [UInt64(7), 8, 9])
    func aThousandHedgedCallsEndConsistently(seed: UInt64) async throws {
        let behavior = HedgingBehavior(
            settings: try HedgingSettings(maximumHedges: 2, delay: .fixed(.milliseconds(50))),
            store: InMemoryLatencyStore(), clock: TestClock())
        let tally = LockedBox(Tally())
        var generator = BehaviorFakes.SeededGenerator(seed: seed)
        let steps: [ScriptedAttempts.Step] = [.answer, .fail(503), .fail(404), .hang]
        let plans = (0..<1_000).map { _ -> (script: [ScriptedAttempts.Step], cancelAfter: Int?) in
            let script = (0..<3).map { _ in steps[Int.random(in: 0..<steps.count, using: &generator)] }
            // A call whose attempts hang with no answer and no final error would never end: cancel those too.
            let mayHang =
                !script.contains { if case .answer = $0 { true } else { false } }
                && !script.contains { if case .fail(404) = $0 { true } else { false } }
                && script.contains { if case .hang = $0 { true } else { false } }
            let cancel = mayHang || Int.random(in: 0..<4, using: &generator) == 0
            return (script, cancel ? Int.random(in: 0..<20, using: &generator) : nil)
        }

        await withTaskGroup(of: Void.self) { group in
            for plan in plans {
                group.addTask {
                    let attempts = ScriptedAttempts(plan.script)
                    let request = HTTPRequest(url: URL(string: "https://api.example.test/items")!)
                    let next = attempts.next
                    let call = Task { try await behavior.intercept(request, context: RequestContext(), next: next) }
                    if let cancelAfter = plan.cancelAfter {
                        for _ in 0..<cancelAfter { await Task.yield() }
                        call.cancel()
                    }
                    let result = await call.result
                    let (started, ended) = (attempts.started, attempts.ended)
                    tally.withLock {
                        $0.calls += 1
                        if started > 3 { $0.tooManyAttempts += 1 }
                        if ended != started { $0.attemptsOutlivingTheCall += 1 }
                        switch result {
                        case .success: $0.succeeded += 1
                        case .failure(is CancellationError):
                            $0.cancelled += 1
                            if plan.cancelAfter == nil { $0.strayCancellations += 1 }
                        case .failure: $0.failed += 1
                        }
                    }
                }
            }
        }

        let final = tally.current
        #expect(final.calls == 1_000)
        #expect(final.tooManyAttempts == 0)
        #expect(final.attemptsOutlivingTheCall == 0)
        #expect(final.strayCancellations == 0)
        #expect(final.succeeded + final.failed + final.cancelled == 1_000)
        #expect(final.succeeded > 0 && final.failed > 0)
    }
}
