import Foundation
import NetworkingHTTP
import NetworkingTesting
import Testing

/// `TestClock`'s sleeps end when their task is cancelled, whenever the cancellation comes: before the sleep starts,
/// while it registers, or while it waits, with no `advance(by:)`.
@Suite struct TestClockCancellationTests {
    @Test func everyCancelledSleepEndsWithoutTheClockMoving() async throws {
        let clock = TestClock(mode: .manual)
        let ended = LockedBox(0)
        let cancelledErrors = LockedBox(0)
        for round in 0..<500 {
            let task = Task {
                do {
                    try await clock.sleep(for: .seconds(60))
                } catch is CancellationError {
                    cancelledErrors.withLock { $0 += 1 }
                }
                ended.withLock { $0 += 1 }
            }
            // Cancel at different moments: at once, or after letting the sleep get under way.
            for _ in 0..<(round % 3) { await Task.yield() }
            task.cancel()
        }
        // Read against a deadline: a sleep that missed its cancellation would wait for an advance forever. Long,
        // as it only catches that hang: a saturated global executor can take tens of seconds.
        let clock2 = ContinuousClock()
        let limit = clock2.now.advanced(by: .seconds(120))
        while ended.current < 500, clock2.now < limit { await Task.yield() }
        #expect(ended.current == 500)
        #expect(cancelledErrors.current == 500)
    }
}
