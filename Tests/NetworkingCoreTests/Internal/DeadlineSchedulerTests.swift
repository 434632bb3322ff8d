import Foundation
import Networking
import Testing
import NetworkingTestSupport

/// The process-wide timer of real-clock time limits: entries fire in deadline order, a removed entry never fires,
/// and calls leave nothing behind.
@Suite struct DeadlineSchedulerTests {
    /// The `onTimeout` of the calls in these tests.
    static let timedOut: @Sendable () -> any Error = { TestError("timeout") }

    @Test func entriesFireInDeadlineOrder() {
        let scheduler = DeadlineScheduler()
        // An hour away: only the explicit firings below can run them, at the instants the test chooses.
        let base = ContinuousClock.now + .seconds(3_600)
        let fired = LockedBox<[Int]>([])
        for second in [5, 1, 4, 2, 3] {
            _ = scheduler.add(deadline: base + .seconds(second)) { fired.withLock { $0.append(second) } }
        }
        scheduler.fireDue(at: base + .milliseconds(3_500))
        #expect(fired.current == [1, 2, 3])
        #expect(scheduler.pendingCount == 2)
        scheduler.fireDue(at: base + .seconds(10))
        #expect(fired.current == [1, 2, 3, 4, 5])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func aRemovedEntryNeverFires() {
        let scheduler = DeadlineScheduler()
        let base = ContinuousClock.now + .seconds(3_600)
        let fired = LockedBox<[String]>([])
        let removed = scheduler.add(deadline: base + .seconds(1)) { fired.withLock { $0.append("removed") } }
        _ = scheduler.add(deadline: base + .seconds(2)) { fired.withLock { $0.append("kept") } }
        #expect(scheduler.remove(removed))
        scheduler.fireDue(at: base + .seconds(10))
        #expect(fired.current == ["kept"])
        #expect(!scheduler.remove(removed))
    }

    @Test(.timeLimit(.minutes(1))) func theRealTimerSkipsARemovedEntryDueBeforeAPendingOne() async throws {
        let scheduler = DeadlineScheduler()
        let now = ContinuousClock.now
        let fired = LockedBox<[String]>([])
        let removed = scheduler.add(deadline: now + .milliseconds(20)) { fired.withLock { $0.append("removed") } }
        #expect(scheduler.remove(removed))
        // The removed entry was due first: had it stayed, it would have fired before this one.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            _ = scheduler.add(deadline: now + .milliseconds(40)) {
                fired.withLock { $0.append("kept") }
                continuation.resume()
            }
        }
        #expect(fired.current == ["kept"])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func theHeapIsEmptyAfterManyCallsEnd() async throws {
        let scheduler = DeadlineScheduler()
        let clock = SchedulerClock(scheduler: scheduler)
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<2_000 {
                group.addTask {
                    do {
                        return try await withTimeLimit(.seconds(60), clock: clock, onTimeout: Self.timedOut) {
                            if index % 2 == 0 { await Task.yield() }
                            if index % 5 == 0 { throw TestError("failed") }
                            return 1
                        }
                    } catch let error as TestError where error.tag == "failed" {
                        return 0
                    }
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(results.count == 2_000)
        #expect(results.filter { $0 == 1 }.count == 1_600)
        #expect(scheduler.pendingCount == 0)
    }
}

/// The system clock's readings with its timers in a scheduler of the test's own, so a test can count them.
struct SchedulerClock: NetworkClock {
    let scheduler: DeadlineScheduler
    func now() -> Duration { SystemClock().now() }
    func date() -> Date { SystemClock().date() }
    func sleep(for duration: Duration) async throws { try await SystemClock().sleep(for: duration) }
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ClockTimer {
        let id = scheduler.add(deadline: .now + delay, action: action)
        return ClockTimer { scheduler.remove(id) }
    }
}
