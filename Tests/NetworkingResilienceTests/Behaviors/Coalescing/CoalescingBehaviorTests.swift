import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

/// `CoalescingBehavior` alone, called with fake `next` closures: who shares, who waits, who cancels what.
@Suite struct CoalescingBehaviorTests {
    /// A `next` that counts its calls and answers `answer-<n>` once its gate opens.
    final class SharedNext: Sendable {
        let gate = Gate()
        private let state = LockedBox<(calls: Int, cancelled: Int)>((0, 0))
        var calls: Int { state.current.calls }
        var cancelled: Int { state.current.cancelled }

        var next: NextHandler {
            { [self] request in
                let n = state.withLock {
                    $0.calls += 1
                    return $0.calls
                }
                await gate.wait()
                if Task.isCancelled { state.withLock { $0.cancelled += 1 } }
                return BehaviorFakes.response(to: request, body: Data("answer-\(n)".utf8))
            }
        }
    }

    private static func get(_ authorization: String? = nil, method: HTTPMethod = .get) -> HTTPRequest {
        var request = HTTPRequest(method: method, url: URL(string: "https://api.example.test/v1/items")!)
        if let authorization { request.headerFields[.authorization] = authorization }
        return request
    }

    private static func body(_ outcome: Result<(HTTPResponse, HTTPResponse.Body), any Error>) -> String? {
        guard case .success((_, let body)) = outcome, let data = body.data else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    private static func waiters(_ table: any CoalescingTable) -> Int {
        table.calls.reduce(0) { $0 + $1.waiterCount }
    }

    @Test func identicalGETsInFlightShareOneCallAndEachGetsTheAnswer() async throws {
        // Given
        let behavior = CoalescingBehavior()
        let shared = SharedNext()
        // When
        let tasks = (0..<5).map { _ in
            Task { try await behavior.intercept(Self.get("Bearer a"), context: RequestContext(), next: shared.next) }
        }
        try await BehaviorFakes.waitUntil { Self.waiters(behavior.table) == 5 }
        shared.gate.open()
        // Then
        for task in tasks { #expect(Self.body(await task.result) == "answer-1") }
        #expect(shared.calls == 1)
        #expect(behavior.table.calls.isEmpty)
    }

    @Test func differentAuthorizationValuesNeverShare() async throws {
        let behavior = CoalescingBehavior()
        let shared = SharedNext()
        let tasks = ["Bearer a", "Bearer b", "Bearer a", "Bearer b"].map { token in
            Task { try await behavior.intercept(Self.get(token), context: RequestContext(), next: shared.next) }
        }
        try await BehaviorFakes.waitUntil { Self.waiters(behavior.table) == 4 }
        #expect(behavior.table.calls.count == 2)
        shared.gate.open()
        var answers: [String?] = []
        for task in tasks { answers.append(Self.body(await task.result)) }
        #expect(shared.calls == 2)
        #expect(answers[0] == answers[2] && answers[1] == answers[3] && answers[0] != answers[1])
    }

    @Test func otherMethodsAndRequestsWithABodyPassThrough() async throws {
        let behavior = CoalescingBehavior()
        let sends = LockedBox(0)
        let next: NextHandler = { request in
            sends.withLock { $0 += 1 }
            return BehaviorFakes.response(to: request)
        }
        var withBody = Self.get()
        withBody.body = .data(Data("{}".utf8))
        for request in [Self.get(method: .post), Self.get(method: .put), Self.get(method: .delete), withBody] {
            _ = try await behavior.intercept(request, context: RequestContext(), next: next)
            _ = try await behavior.intercept(request, context: RequestContext(), next: next)
        }
        #expect(sends.current == 8)
        #expect(behavior.table.calls.isEmpty)
    }

    @Test func aFinishedCallIsForgottenNotCached() async throws {
        let behavior = CoalescingBehavior()
        let sends = LockedBox(0)
        let next: NextHandler = { request in
            sends.withLock { $0 += 1 }
            return BehaviorFakes.response(to: request)
        }
        _ = try await behavior.intercept(Self.get(), context: RequestContext(), next: next)
        _ = try await behavior.intercept(Self.get(), context: RequestContext(), next: next)
        #expect(sends.current == 2)
    }

    @Test func aSharedFailureReachesEveryWaiterAsTheSameError() async throws {
        let behavior = CoalescingBehavior()
        let gate = Gate()
        let sends = LockedBox(0)
        let next: NextHandler = { request in
            sends.withLock { $0 += 1 }
            await gate.wait()
            throw BehaviorFakes.unacceptable(request, status: 503, body: Data("busy".utf8))
        }
        let tasks = (0..<3).map { _ in
            Task { try await behavior.intercept(Self.get(), context: RequestContext(), next: next) }
        }
        try await BehaviorFakes.waitUntil { Self.waiters(behavior.table) == 3 }
        gate.open()
        for task in tasks {
            let error = try await expectNetworkError { try await task.value }
            #expect(error?.kind == .unacceptableStatus(503))
            #expect(error?.body == Data("busy".utf8))
        }
        #expect(sends.current == 1)
        #expect(behavior.table.calls.isEmpty)
    }

    @Test func cancellingTheFirstCallerLeavesTheSharedCallToTheOthers() async throws {
        // Given: three callers waiting on the first one's call
        let behavior = CoalescingBehavior()
        let shared = SharedNext()
        let first = Task { try await behavior.intercept(Self.get(), context: RequestContext(), next: shared.next) }
        try await BehaviorFakes.waitUntil { shared.calls == 1 }
        let others = (0..<2).map { _ in
            Task { try await behavior.intercept(Self.get(), context: RequestContext(), next: shared.next) }
        }
        try await BehaviorFakes.waitUntil { Self.waiters(behavior.table) == 3 }
        // When: the first is cancelled before the answer
        first.cancel()
        let firstResult = await first.result
        // Then: it ends at once with CancellationError, the call goes on uncancelled, the others get its answer
        guard case .failure(let error) = firstResult else {
            Issue.record("the cancelled caller got an answer")
            return
        }
        #expect(error is CancellationError)
        #expect(Self.waiters(behavior.table) == 2)
        shared.gate.open()
        for task in others { #expect(Self.body(await task.result) == "answer-1") }
        #expect(shared.calls == 1)
        #expect(shared.cancelled == 0)
        #expect(behavior.table.calls.isEmpty)
    }

    @Test func theLastCallerOutCancelsTheSharedCall() async throws {
        let behavior = CoalescingBehavior()
        let observed = LockedBox<(started: Int, cancelled: Int)>((0, 0))
        let next: NextHandler = { request in
            observed.withLock { $0.started += 1 }
            await BehaviorFakes.suspendUntilCancelled()
            observed.withLock { $0.cancelled += 1 }
            throw CancellationError()
        }
        let tasks = (0..<3).map { _ in
            Task { try await behavior.intercept(Self.get(), context: RequestContext(), next: next) }
        }
        try await BehaviorFakes.waitUntil { Self.waiters(behavior.table) == 3 && observed.current.started == 1 }
        tasks[0].cancel()
        tasks[1].cancel()
        _ = await tasks[0].result
        _ = await tasks[1].result
        #expect(observed.current.cancelled == 0)
        tasks[2].cancel()
        let last = await tasks[2].result
        #expect((try? last.get()) == nil)
        try await BehaviorFakes.waitUntil { observed.current.cancelled == 1 }
        #expect(observed.current.started == 1)
        #expect(behavior.table.calls.isEmpty)
    }

    @Test func aCallerCancelledBeforeItStartsSendsNothing() async throws {
        let behavior = CoalescingBehavior()
        let shared = SharedNext()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await behavior.intercept(Self.get(), context: RequestContext(), next: shared.next)
        }
        guard case .failure(let error) = await task.result else {
            Issue.record("expected CancellationError")
            return
        }
        #expect(error is CancellationError)
        #expect(shared.calls == 0)
        #expect(behavior.table.calls.isEmpty)
    }

    @Test func aWaiterStopsAtItsOwnAttemptTimeoutWhileTheOthersGetTheAnswer() async throws {
        let behavior = CoalescingBehavior()
        let shared = SharedNext()
        let clock = TestClock(mode: .manual)
        let patient = Task {
            try await behavior.intercept(Self.get(), context: RequestContext(clock: clock), next: shared.next)
        }
        try await BehaviorFakes.waitUntil { shared.calls == 1 }
        let hasty = Task {
            try await behavior.intercept(
                Self.get(), context: RequestContext(attemptTimeout: .seconds(1), clock: clock), next: shared.next)
        }
        try await BehaviorFakes.waitUntil { Self.waiters(behavior.table) == 2 }
        await clock.waitForTimers(2)
        clock.advance(by: .seconds(1))
        let error = try await expectNetworkError { try await hasty.value }
        #expect(error?.kind == .timedOut(.attempt))
        shared.gate.open()
        #expect(Self.body(await patient.result) == "answer-1")
        #expect(shared.calls == 1)
    }

    @Test func copiesShareOneTable() async throws {
        let behavior = CoalescingBehavior()
        let copy = behavior
        let shared = SharedNext()
        let a = Task { try await behavior.intercept(Self.get(), context: RequestContext(), next: shared.next) }
        let b = Task { try await copy.intercept(Self.get(), context: RequestContext(), next: shared.next) }
        try await BehaviorFakes.waitUntil { Self.waiters(behavior.table) == 2 }
        shared.gate.open()
        #expect(Self.body(await a.result) == "answer-1")
        #expect(Self.body(await b.result) == "answer-1")
        #expect(shared.calls == 1)
    }
}
