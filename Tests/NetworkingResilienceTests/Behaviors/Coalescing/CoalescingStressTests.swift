import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

/// 1,000 concurrent callers over a few keys with random outcomes and cancellations: a lost race shows up as a second
/// transport call for a key, a caller without an answer, a cancelled shared call others still wait for, or a table
/// that is not empty at the end.
@Suite struct CoalescingStressTests {
    private struct Caller {
        let key: Int
        let cancels: Bool
    }

    /// Spins (yielding) until `condition` holds; records an issue instead of hanging when it never does.
    private static func settle(_ what: String, _ condition: () -> Bool) async {
        for _ in 0..<2_000_000 {
            if condition() { return }
            await Task.yield()
        }
        Issue.record("never settled: \(what)")
    }

    private static func request(key: Int) -> HTTPRequest {
        var request = HTTPRequest(url: URL(string: "https://api.example.test/v1/items")!)
        request.headerFields[.authorization] = "Bearer t\(key)"
        return request
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func thousandCallersInWavesEndWithOneCallPerKeyAndEveryAnswerDelivered(seed: UInt64) async throws {
        var random = BehaviorFakes.SeededGenerator(seed: seed)
        let behavior = CoalescingBehavior()
        for wave in 0..<2 {
            // Given: random keys, a random outcome per key, a random third of the callers to be cancelled
            let keyCount = Int.random(in: 1...40, using: &random)
            let fails = (0..<keyCount).map { _ in Bool.random(using: &random) }
            let callers = (0..<1_000).map { _ in
                Caller(
                    key: Int.random(in: 0..<keyCount, using: &random),
                    cancels: Int.random(in: 0..<3, using: &random) == 0)
            }
            let usedKeys = Set(callers.map(\.key))
            let gate = Gate()
            let starts = LockedBox([Int: Int]())
            let sawCancellation = LockedBox(Set<Int>())
            let next: NextHandler = { request in
                let key = Int(request.headerFields[.authorization]?.dropFirst("Bearer t".count) ?? "") ?? -1
                starts.withLock { $0[key, default: 0] += 1 }
                await gate.wait()
                if Task.isCancelled {
                    sawCancellation.withLock { _ = $0.insert(key) }
                    throw CancellationError()
                }
                if fails[key] { throw BehaviorFakes.unacceptable(request, status: 503, body: Data("fail-\(key)".utf8)) }
                return BehaviorFakes.response(to: request, body: Data("ok-\(key)".utf8))
            }
            // When: everyone joins, the chosen ones are cancelled, then the answers come
            // All callers are released at once, so callers of one key race each other into the table.
            let start = Barrier(callers.count)
            let tasks = callers.map { caller in
                Task {
                    await start.arrive()
                    return try await behavior.intercept(
                        Self.request(key: caller.key), context: RequestContext(), next: next)
                }
            }
            await Self.settle("wave \(wave): every caller joined") {
                behavior.table.calls.reduce(0) { $0 + $1.waiterCount } == callers.count
                    && starts.current.values.reduce(0, +) >= usedKeys.count
            }
            for (caller, task) in zip(callers, tasks) where caller.cancels { task.cancel() }
            gate.open()
            // Then
            var answered = 0
            for (caller, task) in zip(callers, tasks) {
                let result = await task.result
                if caller.cancels {
                    guard case .failure(let error) = result, error is CancellationError else {
                        Issue.record("a cancelled caller got \(result)")
                        continue
                    }
                } else if fails[caller.key] {
                    guard case .failure(let error as NetworkError) = result else {
                        Issue.record("caller of failing key \(caller.key) got \(result)")
                        continue
                    }
                    #expect(error.kind == .unacceptableStatus(503) && error.body == Data("fail-\(caller.key)".utf8))
                    answered += 1
                } else {
                    guard case .success((_, let body)) = result else {
                        Issue.record("caller of key \(caller.key) got \(result)")
                        continue
                    }
                    #expect(body.data == Data("ok-\(caller.key)".utf8))
                    answered += 1
                }
            }
            let abandoned = Set(usedKeys.filter { key in callers.allSatisfy { $0.key != key || $0.cancels } })
            await Self.settle("wave \(wave): abandoned calls ended") {
                sawCancellation.current.count >= abandoned.count
            }
            #expect(starts.current == Dictionary(uniqueKeysWithValues: usedKeys.map { ($0, 1) }))
            #expect(answered == callers.filter { !$0.cancels }.count)
            #expect(sawCancellation.current == abandoned)
            #expect(behavior.table.calls.isEmpty)
        }
    }

    @Test(arguments: [7, 8] as [UInt64])
    func thousandFreeRunningCallersWithRandomTimingNeverLoseAnAnswer(seed: UInt64) async throws {
        var random = BehaviorFakes.SeededGenerator(seed: seed)
        let behavior = CoalescingBehavior()
        let keyCount = 12
        let fails = (0..<keyCount).map { _ in Bool.random(using: &random) }
        let plans = (0..<1_000).map { _ in
            (
                key: Int.random(in: 0..<keyCount, using: &random), yields: Int.random(in: 0..<20, using: &random),
                cancelAfter: Int.random(in: 0..<4, using: &random) == 0 ? Int.random(in: 0..<30, using: &random) : nil
            )
        }
        let sends = LockedBox(0)
        let next: NextHandler = { request in
            let key = Int(request.headerFields[.authorization]?.dropFirst("Bearer t".count) ?? "") ?? -1
            sends.withLock { $0 += 1 }
            for _ in 0..<(key % 5) * 3 { await Task.yield() }
            try Task.checkCancellation()
            if fails[key] { throw BehaviorFakes.unacceptable(request, status: 503, body: Data("fail-\(key)".utf8)) }
            return BehaviorFakes.response(to: request, body: Data("ok-\(key)".utf8))
        }
        let tasks = plans.map { plan in
            Task {
                for _ in 0..<plan.yields { await Task.yield() }
                return try await behavior.intercept(Self.request(key: plan.key), context: RequestContext(), next: next)
            }
        }
        await withTaskGroup(of: Void.self) { group in
            for (plan, task) in zip(plans, tasks) {
                guard let cancelAfter = plan.cancelAfter else { continue }
                group.addTask {
                    for _ in 0..<cancelAfter { await Task.yield() }
                    task.cancel()
                }
            }
        }
        for (plan, task) in zip(plans, tasks) {
            switch await task.result {
            case .success((_, let body)):
                #expect(!fails[plan.key] && body.data == Data("ok-\(plan.key)".utf8))
            case .failure(let error as NetworkError):
                #expect(fails[plan.key] && error.body == Data("fail-\(plan.key)".utf8))
            case .failure(let error):
                // Only a caller that was cancelled may end this way.
                #expect(error is CancellationError && plan.cancelAfter != nil)
            }
        }
        await Self.settle("every call closed") { behavior.table.calls.isEmpty }
        #expect(sends.current <= plans.count)
    }
}
