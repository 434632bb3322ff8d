import Networking
import NetworkingTesting
import Testing

/// `withTimeLimit` on the real clock (the shared deadline scheduler) and on a test clock (virtual time).
@Suite struct TimeLimitTests {
    /// The error the tests' `onTimeout` returns.
    struct LimitPassed: Error {}

    /// The `onTimeout` of every call in these tests.
    static let limitPassed: @Sendable () -> any Error = { LimitPassed() }

    /// A call under `limit` whose operation waits until it is cancelled.
    static func callWaitingForCancellation(
        _ waiter: CancellationWaiter, limit: Duration, scheduler: DeadlineScheduler
    ) -> Task<Void, any Error> {
        Task {
            try await withTimeLimit(limit, clock: SystemClock(), scheduler: scheduler, onTimeout: limitPassed) {
                try await waiter.waitForCancellation()
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func aShortRealLimitFiresTheTimerAndCancelsTheOperation() async {
        let scheduler = DeadlineScheduler()
        let waiter = CancellationWaiter()
        let start = ContinuousClock.now
        await #expect(throws: LimitPassed.self) {
            try await withTimeLimit(
                .milliseconds(50), clock: SystemClock(), scheduler: scheduler, onTimeout: Self.limitPassed
            ) {
                try await waiter.waitForCancellation()
            }
        }
        let elapsed = ContinuousClock.now - start
        #expect(waiter.wasCancelled)
        #expect(elapsed >= .milliseconds(50), "the timer never fires before the limit")
        #expect(elapsed < .seconds(30), "a generous upper bound: \(elapsed)")
        #expect(scheduler.pendingCount == 0)
    }

    @Test(.timeLimit(.minutes(1))) func whenTheTimerFiresTheOperationIsCancelledAndTheTimeoutThrown() async {
        let scheduler = DeadlineScheduler()
        let waiter = CancellationWaiter()
        let call = Self.callWaitingForCancellation(waiter, limit: .seconds(60), scheduler: scheduler)
        #expect(await eventually { waiter.isWaiting && scheduler.pendingCount == 1 })
        scheduler.fireDue(at: .now + .seconds(61))
        await #expect(throws: LimitPassed.self) { try await call.value }
        #expect(waiter.wasCancelled)
        #expect(scheduler.pendingCount == 0)
    }

    @Test(.timeLimit(.minutes(1))) func aValueProducedJustAsTheTimerFiresIsKeptNotTurnedIntoATimeout() async throws {
        // The operation has its value, then the timer takes the entry before the call removes it.
        let scheduler = DeadlineScheduler()
        let value = try await withTimeLimit(
            .seconds(60), clock: SystemClock(), scheduler: scheduler, onTimeout: Self.limitPassed
        ) {
            // Wait until the call has added its entry, then let the timer take it.
            while scheduler.pendingCount == 0 { await Task.yield() }
            scheduler.fireDue(at: .now + .seconds(61))
            return 42
        }
        #expect(value == 42)
        #expect(scheduler.pendingCount == 0)
    }

    @Test(.timeLimit(.minutes(1))) func cancellingTheCallerGivesCancellationErrorNotATimeout() async {
        let scheduler = DeadlineScheduler()
        let waiter = CancellationWaiter()
        let call = Self.callWaitingForCancellation(waiter, limit: .seconds(60), scheduler: scheduler)
        #expect(await eventually { waiter.isWaiting })
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(waiter.wasCancelled)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func anAlreadyCancelledCallerGetsCancellationErrorAndNoTimer() async {
        let scheduler = DeadlineScheduler()
        let call = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await withTimeLimit(
                .milliseconds(1), clock: SystemClock(), scheduler: scheduler, onTimeout: Self.limitPassed
            ) {
                #expect(scheduler.pendingCount == 0)
                try Task.checkCancellation()
                return 1
            }
        }
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(scheduler.pendingCount == 0)
    }

    @Test func anOperationWithinTheLimitReturnsItsValueOrItsError() async throws {
        let scheduler = DeadlineScheduler()
        let value = try await withTimeLimit(
            .seconds(60), clock: SystemClock(), scheduler: scheduler, onTimeout: Self.limitPassed
        ) {
            #expect(scheduler.pendingCount <= 1)
            return 42
        }
        #expect(value == 42)
        await #expect(throws: TestError("own")) {
            try await withTimeLimit(
                .seconds(60), clock: SystemClock(), scheduler: scheduler, onTimeout: Self.limitPassed
            ) {
                await Task.yield()
                throw TestError("own")
            }
        }
        #expect(scheduler.pendingCount == 0)
    }

    @Test func aNilLimitRunsTheOperationWithoutATimer() async throws {
        let scheduler = DeadlineScheduler()
        let value = try await withTimeLimit(
            nil, clock: SystemClock(), scheduler: scheduler, onTimeout: Self.limitPassed
        ) {
            scheduler.pendingCount
        }
        #expect(value == 0)
    }

    @Test(.timeLimit(.minutes(1))) func aTestClockKeepsTheLimitInVirtualTimeWithoutTheScheduler() async {
        let scheduler = DeadlineScheduler()
        let clock = TestClock(mode: .manual)
        let waiter = CancellationWaiter()
        let call = Task {
            try await withTimeLimit(
                .milliseconds(300), clock: clock, scheduler: scheduler, onTimeout: Self.limitPassed
            ) {
                try await waiter.waitForCancellation()
            }
        }
        await clock.waitForSleepers(1)
        #expect(scheduler.pendingCount == 0)
        #expect(clock.sleeps == [.milliseconds(300)])
        clock.advance(by: .milliseconds(300))
        await #expect(throws: LimitPassed.self) { try await call.value }
        #expect(waiter.wasCancelled)
    }
}
