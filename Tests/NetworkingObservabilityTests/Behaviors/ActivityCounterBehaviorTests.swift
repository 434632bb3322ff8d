import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `ActivityCounterBehavior` alone: its `intercept` driven with fake `next` closures.
@Suite struct ActivityCounterBehaviorTests {
    enum Outcome: String, CaseIterable, Sendable {
        case success, unacceptableStatus, thrownError, cancellation
    }

    @Test func oneCallIsCountedWhileInFlightAndReportsBusyThenIdle() async throws {
        // Given
        let events = LockedBox<[Bool]>([])
        let behavior = ActivityCounterBehavior(onChange: { isBusy in events.withLock { $0.append(isBusy) } })
        let seenInFlight = LockedBox<(count: Int, events: [Bool])?>(nil)
        // When
        _ = try await behavior.intercept(sampleRequest, context: RequestContext()) { request in
            seenInFlight.withLock { $0 = (behavior.store.count, events.current) }
            return okResponse(request)
        }
        // Then
        #expect(seenInFlight.current?.count == 1)
        #expect(seenInFlight.current?.events == [true])
        #expect(behavior.store.count == 0)
        #expect(events.current == [true, false])
    }

    @Test(arguments: Outcome.allCases)
    func everyOutcomeEndsTheCountAndPassesTheOutcomeThrough(outcome: Outcome) async throws {
        let events = LockedBox<[Bool]>([])
        let behavior = ActivityCounterBehavior(onChange: { isBusy in events.withLock { $0.append(isBusy) } })
        let call = Task {
            try await behavior.intercept(sampleRequest, context: RequestContext(), next: fakeNext(outcome))
        }
        if outcome == .cancellation {
            try await waitUntil { behavior.store.count == 1 }
            call.cancel()
        }
        let result = await call.result
        #expect(observedOutcome(result) == outcome)
        #expect(behavior.store.count == 0)
        #expect(events.current == [true, false])
    }

    @Test func overlappingCallsReportBusyOnceAndIdleOnlyWhenTheLastEnds() async throws {
        let events = LockedBox<[Bool]>([])
        let behavior: ActivityCounterBehavior = .activityCounter { isBusy in events.withLock { $0.append(isBusy) } }
        let firstGate = Gate()
        let secondGate = Gate()
        let first = Task {
            try await behavior.intercept(sampleRequest, context: RequestContext(), next: gated(firstGate))
        }
        let second = Task {
            try await behavior.intercept(sampleRequest, context: RequestContext(), next: gated(secondGate))
        }
        try await waitUntil { behavior.store.count == 2 }
        firstGate.open()
        _ = try await first.value
        #expect(behavior.store.count == 1)
        #expect(events.current == [true])
        secondGate.open()
        _ = try await second.value
        #expect(behavior.store.count == 0)
        #expect(events.current == [true, false])
    }

    @Test func fiveHundredConcurrentCallsWithRandomOutcomesEndIdleWithBalancedCallbacks() async throws {
        // Given: a seeded mix of outcomes, so a failure can be replayed.
        var generator = BehaviorFakes.SeededGenerator(seed: 0x5EED_2024)
        let outcomes = (0..<500).map { _ in Outcome.allCases.randomElement(using: &generator)! }
        let cancellable = outcomes.filter { $0 == .cancellation }.count
        let events = LockedBox<[Bool]>([])
        let behavior = ActivityCounterBehavior(onChange: { isBusy in events.withLock { $0.append(isBusy) } })
        let started = AsyncStream<Void>.makeStream()
        // When
        let calls = outcomes.map { outcome in
            Task {
                let result: Result<(HTTPResponse, HTTPResponse.Body), any Error>
                do {
                    result = .success(
                        try await behavior.intercept(sampleRequest, context: RequestContext()) { request in
                            if outcome == .cancellation { started.continuation.yield() }
                            return try await fakeNext(outcome)(request)
                        })
                } catch {
                    result = .failure(error)
                }
                return observedOutcome(result)
            }
        }
        var iterator = started.stream.makeAsyncIterator()
        for _ in 0..<cancellable { await iterator.next() }
        #expect(behavior.store.count >= cancellable)
        #expect(events.current.last == true)
        for (call, outcome) in zip(calls, outcomes) where outcome == .cancellation { call.cancel() }
        var observed: [Outcome?] = []
        for call in calls { observed.append(await call.value) }
        // Then
        #expect(cancellable > 50 && cancellable < 200)
        #expect(observed == outcomes.map(Optional.some))
        #expect(behavior.store.count == 0)
        let recorded = events.current
        #expect(recorded.filter { $0 }.count == recorded.filter { !$0 }.count)
        #expect(recorded.enumerated().allSatisfy { index, isBusy in isBusy == index.isMultiple(of: 2) })
        #expect(recorded.last == false)
    }

    @Test func aCallRetriedWithBackOffInsideTheCounterCountsOnceAndStaysBusyWhileWaiting() async throws {
        // Given: `next` plays a retry behavior placed inside the counter: 503, wait 2 s, 503, wait 4 s, 200.
        let clock = TestClock(mode: .manual)
        let attempts = LockedBox(0)
        let events = LockedBox<[Bool]>([])
        let behavior = ActivityCounterBehavior(onChange: { isBusy in events.withLock { $0.append(isBusy) } })
        let retryingNext: NextHandler = { request in
            for delay in [Duration.seconds(2), .seconds(4)] {
                attempts.withLock { $0 += 1 }
                try await clock.sleep(for: delay)
            }
            attempts.withLock { $0 += 1 }
            return okResponse(request)
        }
        // When
        let call = Task { try await behavior.intercept(sampleRequest, context: RequestContext(), next: retryingNext) }
        for delay in [Duration.seconds(2), .seconds(4)] {
            await clock.waitForSleepers(1)
            // Then: busy during every back-off.
            #expect(behavior.store.count == 1)
            #expect(events.current == [true])
            clock.advance(by: delay)
        }
        _ = try await call.value
        #expect(attempts.current == 3)
        #expect(events.current == [true, false])
        #expect(behavior.store.count == 0)
    }

    @Test func copiesOfOneBehaviorShareTheirCount() async throws {
        let behavior = ActivityCounterBehavior()
        let copy = behavior
        let gate = Gate()
        let call = Task { try await behavior.intercept(sampleRequest, context: RequestContext(), next: gated(gate)) }
        try await waitUntil { copy.store.count == 1 }
        gate.open()
        _ = try await call.value
        #expect(copy.store.count == 0)
    }

    @Test func theDefaultStateNeverGoesBelowZero() {
        let state = InMemoryActivityCounterStore()
        #expect(state.decrement() == 0)
        #expect(state.increment() == 1)
        #expect(state.increment() == 2)
        #expect(state.decrement() == 1)
        #expect(state.count == 1)
    }

    @Test func aCustomStateIsUsedInsteadOfTheDefault() async throws {
        final class Recording: ActivityCounterStore {
            let changes = LockedBox<[Int]>([])
            let inner = InMemoryActivityCounterStore()
            var count: Int { inner.count }
            func increment() -> Int { record(inner.increment()) }
            func decrement() -> Int { record(inner.decrement()) }
            private func record(_ value: Int) -> Int {
                changes.withLock { $0.append(value) }
                return value
            }
        }
        let state = Recording()
        _ = try await ActivityCounterBehavior(store: state).intercept(
            sampleRequest, context: RequestContext(), next: fakeNext(.success))
        #expect(state.changes.current == [1, 0])
    }
}

private let sampleRequest = BehaviorFakes.request

private func okResponse(_ request: HTTPRequest, status: Int = 200) -> (HTTPResponse, HTTPResponse.Body) {
    BehaviorFakes.response(to: request, status: status)
}

private func waitUntil(fileID: String = #fileID, line: Int = #line, _ condition: () -> Bool) async throws {
    try await BehaviorFakes.waitUntil(fileID: fileID, line: line, condition)
}

/// A `next` producing `outcome`; `.cancellation` suspends until the calling task is cancelled.
private func fakeNext(_ outcome: ActivityCounterBehaviorTests.Outcome) -> NextHandler {
    { request in
        switch outcome {
        case .success:
            await Task.yield()
            return okResponse(request)
        case .unacceptableStatus:
            throw BehaviorFakes.unacceptable(request, status: 500)
        case .thrownError:
            throw TestError("boom")
        case .cancellation:
            await BehaviorFakes.suspendUntilCancelled()
            throw CancellationError()
        }
    }
}

private func observedOutcome(_ result: Result<(HTTPResponse, HTTPResponse.Body), any Error>)
    -> ActivityCounterBehaviorTests.Outcome?
{
    switch result {
    case .success: return .success
    case .failure(let error as NetworkError) where error.kind == .unacceptableStatus(500): return .unacceptableStatus
    case .failure(let error as TestError) where error.tag == "boom": return .thrownError
    case .failure(is CancellationError): return .cancellation
    case .failure: return nil
    }
}

private func gated(_ gate: Gate) -> NextHandler {
    { request in
        await gate.wait()
        return okResponse(request)
    }
}
