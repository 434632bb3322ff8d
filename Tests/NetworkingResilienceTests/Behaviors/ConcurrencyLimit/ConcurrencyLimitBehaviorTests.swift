import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `ConcurrencyLimitBehavior` alone, over a fake `next`: admission, FIFO hand-over, overflow, leaving the queue,
/// time limits and release on every outcome. No client, no network, no sleeping.
@Suite struct ConcurrencyLimitBehaviorTests {
    typealias Result = (HTTPResponse, HTTPResponse.Body)

    let store = InMemoryConcurrencyLimitStore()
    let calls = HeldCalls()

    func limit(_ inFlight: Int, queue: Int = 10, scope: BehaviorScope = .client) throws -> ConcurrencyLimitBehavior {
        .concurrencyLimit(
            try ConcurrencyLimitSettings(maximumInFlight: inFlight, maximumQueueLength: queue, scope: scope),
            store: store)
    }

    /// In flight and waiting in the client partition.
    var occupancy: (inFlight: Int, waiting: Int) {
        store.withPartition("") { ($0.permits.inFlight, $0.permits.queue.count) }
    }

    /// Starts call `n` through `behavior` and returns once it is in flight or queued.
    func start(
        _ number: Int, _ behavior: any RequestBehavior, context: RequestContext = RequestContext()
    ) async throws -> Task<Result, any Error> {
        let before = occupancy.inFlight + occupancy.waiting
        let next = calls.next
        let task = Task {
            try await CombinedBehavior([behavior]).intercept(HeldCalls.request(number), context: context, next: next)
        }
        try await BehaviorFakes.waitUntil { occupancy.inFlight + occupancy.waiting > before }
        return task
    }

    @Test func admitsUpToTheLimitAndHandsSlotsToWaitersInArrivalOrder() async throws {
        // Given a limit of 2 and five calls
        let behavior = try limit(2)
        var tasks: [Task<Result, any Error>] = []
        for number in 1...5 { tasks.append(try await start(number, behavior)) }
        try await BehaviorFakes.waitUntil { calls.started.count == 2 }
        #expect(occupancy == (2, 3))
        // When the calls in flight finish one by one
        for number in 1...5 {
            calls.finish(number)
            _ = try await tasks[number - 1].value
            try await BehaviorFakes.waitUntil { calls.started.count == min(number + 2, 5) }
        }
        // Then waiters started oldest first, never more than 2 at once, and every slot came back
        #expect(calls.started == [1, 2, 3, 4, 5])
        #expect(calls.highest == 2)
        #expect(store.activeKeys.isEmpty)
    }

    @Test func aFullQueueFailsTheCallAtOnceWithATypedErrorAndSendsNothing() async throws {
        let behavior = try limit(1, queue: 1)
        let first = try await start(1, behavior)
        let second = try await start(2, behavior)
        let error = try await expectNetworkError {
            try await CombinedBehavior([behavior]).intercept(HeldCalls.request(3), context: RequestContext()) {
                try await calls.next($0)
            }
        }
        #expect(error?.kind == .behavior("ConcurrencyLimitBehavior"))
        let underlying = error?.underlyingError as? ConcurrencyLimitExceededError
        #expect(underlying == ConcurrencyLimitExceededError(partition: "", maximumInFlight: 1, maximumQueueLength: 1))
        #expect(
            underlying?.description
                == "the client has 1 calls in flight and 1 waiting, its limits; the call was not sent")
        #expect(calls.started == [1])
        calls.finish(1)
        calls.finish(2)
        _ = try await (first.value, second.value)
        #expect(calls.started == [1, 2])
        #expect(store.activeKeys.isEmpty)
    }

    @Test func aWaiterCancelledInTheQueueLeavesItAndNeverRuns() async throws {
        let behavior = try limit(1)
        let first = try await start(1, behavior)
        let second = try await start(2, behavior)
        let third = try await start(3, behavior)
        #expect(occupancy == (1, 2))
        // When the oldest waiter is cancelled
        second.cancel()
        await #expect(throws: CancellationError.self) { try await second.value }
        #expect(occupancy == (1, 1))
        // Then the released slot goes to the next waiter, and the cancelled call never reached `next`
        calls.finish(1)
        calls.finish(3)
        _ = try await (first.value, third.value)
        #expect(calls.started == [1, 3])
        #expect(store.activeKeys.isEmpty)
    }

    @Test func theCallDeadlineBoundsTheWait() async throws {
        let clock = TestClock(mode: .manual)
        let context = RequestContext(
            requestName: "GET /2", deadline: CallDeadline(limit: .seconds(2), clock: clock), clock: clock)
        let behavior = try limit(1)
        let first = try await start(1, behavior)
        let second = try await start(2, behavior, context: context)
        await clock.waitForTimers(1)
        clock.advance(by: .seconds(2))
        let error = try await expectNetworkError { try await second.value }
        #expect(error?.kind == .timedOut(.call))
        #expect(error?.requestName == "GET /2")
        #expect(occupancy == (1, 0))
        calls.finish(1)
        _ = try await first.value
        #expect(calls.started == [1])
        #expect(store.activeKeys.isEmpty)
    }

    @Test func theAttemptTimeLimitBoundsTheWaitWhenThereIsNoDeadline() async throws {
        let clock = TestClock(mode: .manual)
        let context = RequestContext(attemptTimeout: .seconds(1), clock: clock)
        let behavior = try limit(1)
        let first = try await start(1, behavior)
        let second = try await start(2, behavior, context: context)
        await clock.waitForTimers(1)
        clock.advance(by: .seconds(1))
        let error = try await expectNetworkError { try await second.value }
        #expect(error?.kind == .timedOut(.attempt))
        calls.finish(1)
        _ = try await first.value
        #expect(store.activeKeys.isEmpty)
    }

    enum Outcome: CaseIterable { case success, failure, cancellation }

    @Test(arguments: Outcome.allCases)
    func theSlotIsReleasedOnceOnEveryOutcome(outcome: Outcome) async throws {
        let behavior = try limit(1)
        let next: NextHandler = { request in
            switch outcome {
            case .success: return BehaviorFakes.response(to: request)
            case .failure: throw BehaviorFakes.unacceptable(request, status: 500)
            case .cancellation:
                await BehaviorFakes.suspendUntilCancelled()
                throw CancellationError()
            }
        }
        let call = Task { try await behavior.intercept(HeldCalls.request(1), context: RequestContext(), next: next) }
        if outcome == .cancellation {
            try await BehaviorFakes.waitUntil { occupancy.inFlight == 1 }
            call.cancel()
        }
        _ = await call.result
        #expect(store.activeKeys.isEmpty)
        // The one slot is free again, exactly once: two calls still cannot run together.
        let second = try await start(2, behavior)
        let third = try await start(3, behavior)
        #expect(occupancy == (1, 1))
        calls.finish(2)
        calls.finish(3)
        _ = try await (second.value, third.value)
        #expect(calls.highest == 1)
        #expect(store.activeKeys.isEmpty)
    }

    @Test func hostScopeGivesEachHostItsOwnSlots() async throws {
        let behavior = try limit(1, queue: 0, scope: .host)
        let next = calls.next
        let a = Task {
            try await behavior.intercept(HeldCalls.request(1, host: "a.test"), context: .init(), next: next)
        }
        let b = Task {
            try await behavior.intercept(HeldCalls.request(2, host: "b.test"), context: .init(), next: next)
        }
        try await BehaviorFakes.waitUntil { calls.started.count == 2 }
        #expect(store.activeKeys == ["a.test:443", "b.test:443"])
        let error = try await expectError(ConcurrencyLimitExceededError.self) {
            try await behavior.intercept(HeldCalls.request(3, host: "a.test"), context: .init(), next: next)
        }
        #expect(error?.partition == "a.test:443")
        calls.finish(1)
        calls.finish(2)
        _ = try await (a.value, b.value)
        #expect(store.activeKeys.isEmpty)
    }

    @Test func anAlreadyCancelledCallTakesNoSlot() async throws {
        let behavior = try limit(1)
        let call = Task {
            await BehaviorFakes.suspendUntilCancelled()
            return try await behavior.intercept(HeldCalls.request(1), context: .init(), next: calls.next)
        }
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(calls.started.isEmpty)
        #expect(store.activeKeys.isEmpty)
    }
}
