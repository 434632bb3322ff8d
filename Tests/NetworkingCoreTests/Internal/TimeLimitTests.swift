import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

/// `withTimeLimit`, the package's one time-limit mechanism: a timer of the clock and a task for the operation. The
/// test clock drives the same code the system clock does.
@Suite struct TimeLimitTests {
    /// The error the tests' `onTimeout` returns.
    struct LimitPassed: Error {}

    /// The `onTimeout` of every call in these tests.
    static let limitPassed: @Sendable () -> any Error = { LimitPassed() }

    /// A call under `limit` on `clock` whose operation waits until it is cancelled.
    static func callWaitingForCancellation(
        _ waiter: CancellationWaiter, limit: Duration, clock: any NetworkClock
    ) -> Task<Void, any Error> {
        Task {
            try await withTimeLimit(limit, clock: clock, onTimeout: limitPassed) {
                try await waiter.waitForCancellation()
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func whenTheTimerFiresTheOperationIsCancelledAndTheTimeoutThrown() async throws {
        let clock = TestClock(mode: .manual)
        let waiter = CancellationWaiter()
        let call = Self.callWaitingForCancellation(waiter, limit: .seconds(60), clock: clock)
        #expect(await eventually { waiter.isWaiting && clock.pendingTimerCount == 1 })
        clock.advance(by: .seconds(59))
        #expect(!waiter.wasCancelled, "the timer never fires before the limit")
        clock.advance(by: .seconds(1))
        await #expect(throws: LimitPassed.self) { try await call.value }
        #expect(waiter.wasCancelled)
        #expect(clock.pendingTimerCount == 0)
    }

    @Test(.timeLimit(.minutes(1))) func aValueProducedAfterTheTimerFiredIsDiscardedNeverReturnedCancelled() async throws
    {
        // The operation ignores the cancellation and produces a resource anyway: the caller gets the time-out, and
        // the resource goes to `discard`, never to the caller.
        let clock = TestClock(mode: .manual)
        let gate = Gate()
        let discarded = LockedBox<[Int]>([])
        let call = Task {
            try await withTimeLimit(
                .seconds(1), clock: clock, onTimeout: Self.limitPassed,
                discard: { value in discarded.withLock { $0.append(value) } }
            ) {
                await gate.wait()
                return 42
            }
        }
        #expect(await eventually { clock.pendingTimerCount == 1 })
        clock.advance(by: .seconds(1))
        gate.open()
        await #expect(throws: LimitPassed.self) { try await call.value }
        #expect(discarded.current == [42])
    }

    @Test(.timeLimit(.minutes(1))) func aValueReturnedBeforeTheLimitIsKeptAndALateTimerNeverCancelsIt() async throws {
        let clock = TestClock(mode: .manual)
        let discarded = LockedBox<[Int]>([])
        let value = try await withTimeLimit(
            .seconds(1), clock: clock, onTimeout: Self.limitPassed,
            discard: { value in discarded.withLock { $0.append(value) } }, { 42 })
        #expect(value == 42)
        #expect(clock.pendingTimerCount == 0, "the timer is cancelled as soon as the value is in")
        clock.advance(by: .seconds(5))
        #expect(discarded.current.isEmpty)
    }

    @Test(.timeLimit(.minutes(1))) func cancellingTheCallerGivesCancellationErrorNotATimeout() async throws {
        let clock = TestClock(mode: .manual)
        let waiter = CancellationWaiter()
        let call = Self.callWaitingForCancellation(waiter, limit: .seconds(60), clock: clock)
        #expect(await eventually { waiter.isWaiting })
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(waiter.wasCancelled)
        #expect(clock.pendingTimerCount == 0)
    }

    @Test(.timeLimit(.minutes(1))) func aCallerCancelledWhileTheTimerFiresStillGetsCancellationError() async throws {
        let clock = TestClock(mode: .manual)
        let waiter = CancellationWaiter()
        let call = Self.callWaitingForCancellation(waiter, limit: .seconds(1), clock: clock)
        #expect(await eventually { waiter.isWaiting && clock.pendingTimerCount == 1 })
        call.cancel()
        clock.advance(by: .seconds(1))
        await #expect(throws: CancellationError.self) { try await call.value }
    }

    @Test func anAlreadyCancelledCallerGetsCancellationErrorAndNoTimer() async throws {
        let clock = TestClock(mode: .manual)
        let call = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await withTimeLimit(.milliseconds(1), clock: clock, onTimeout: Self.limitPassed) {
                #expect(clock.pendingTimerCount == 0)
                try Task.checkCancellation()
                return 1
            }
        }
        await #expect(throws: CancellationError.self) { try await call.value }
    }

    @Test func anOperationWithinTheLimitReturnsItsValueOrItsError() async throws {
        let clock = TestClock(mode: .manual)
        let value = try await withTimeLimit(.seconds(60), clock: clock, onTimeout: Self.limitPassed) { 42 }
        #expect(value == 42)
        await #expect(throws: TestError("own")) {
            try await withTimeLimit(.seconds(60), clock: clock, onTimeout: Self.limitPassed) {
                await Task.yield()
                throw TestError("own")
            }
        }
        #expect(clock.pendingTimerCount == 0)
    }

    @Test func aNilLimitRunsTheOperationWithoutATimer() async throws {
        let clock = TestClock(mode: .manual)
        let value = try await withTimeLimit(nil, clock: clock, onTimeout: Self.limitPassed) {
            clock.pendingTimerCount
        }
        #expect(value == 0)
    }

    @Test(.timeLimit(.minutes(1))) func anAutomaticClockEndsALimitWhenASleepMovesTimePastIt() async throws {
        // In automatic mode, time moves when something sleeps: a back-off of 2 s passes a limit of 1 s.
        let clock = TestClock()
        let waiter = CancellationWaiter()
        let call = Self.callWaitingForCancellation(waiter, limit: .seconds(1), clock: clock)
        #expect(await eventually { waiter.isWaiting && clock.pendingTimerCount == 1 })
        try? await clock.sleep(for: .seconds(2))
        await #expect(throws: LimitPassed.self) { try await call.value }
    }

    @Test(.timeLimit(.minutes(1))) func onTheSystemClockAShortLimitFiresTheSharedTimer() async throws {
        let waiter = CancellationWaiter()
        let start = ContinuousClock.now
        await #expect(throws: LimitPassed.self) {
            try await withTimeLimit(.milliseconds(50), clock: SystemClock(), onTimeout: Self.limitPassed) {
                try await waiter.waitForCancellation()
            }
        }
        let elapsed = ContinuousClock.now - start
        #expect(waiter.wasCancelled)
        #expect(elapsed >= .milliseconds(50), "the timer never fires before the limit")
    }
}
