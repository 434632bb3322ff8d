import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `BackgroundTaskBehavior` alone, on a fake provider that records begin and end and can fire expiry.
@Suite struct BackgroundTaskBehaviorTests {
    enum Outcome: String, CaseIterable, Sendable {
        case success, unacceptableStatus, thrownError, cancellation
    }

    @Test func aTaskIsBegunBeforeTheCallAndEndedAfterIt() async throws {
        // Given
        let provider = FakeProvider()
        let behavior: BackgroundTaskBehavior = .backgroundTask(provider: provider)
        let duringCall = LockedBox<(begun: [String], ended: [Int])?>(nil)
        // When
        _ = try await behavior.intercept(BehaviorFakes.request, context: RequestContext(requestName: "GET /users/42")) {
            request in
            duringCall.withLock { $0 = (provider.begun.map(\.name), provider.ended) }
            return BehaviorFakes.response(to: request)
        }
        // Then
        #expect(duringCall.current?.begun == ["Networking GET /users/42"])
        #expect(duringCall.current?.ended == [])
        #expect(provider.ended == provider.begun.map(\.id))
        #expect(provider.ended.count == 1)
    }

    @Test func aStreamedBodyKeepsTheTaskUntilItEnds() async throws {
        // A stream or a download is part of the call: the task outlives the head and ends with the body, once.
        let provider = FakeProvider()
        let behavior: BackgroundTaskBehavior = .backgroundTask(provider: provider)
        let (body, continuation) = HTTPBody.makeStream()
        let (_, received) = try await behavior.intercept(
            BehaviorFakes.request, context: RequestContext(requestName: "GET /video")
        ) { request in
            (HTTPResponse(status: .ok, url: request.url), body)
        }
        #expect(provider.ended.isEmpty)
        _ = continuation.yield(Data("part".utf8))
        continuation.finish()
        var bytes = 0
        for try await chunk in received { bytes += chunk.count }
        #expect(bytes == 4)
        #expect(provider.ended == [1])
    }

    @Test(arguments: Outcome.allCases)
    func everyOutcomeEndsTheTaskExactlyOnce(outcome: Outcome) async throws {
        let provider = FakeProvider()
        let behavior = BackgroundTaskBehavior(provider: provider)
        let call = Task {
            try await behavior.intercept(BehaviorFakes.request, context: RequestContext()) { request in
                switch outcome {
                case .success: return BehaviorFakes.response(to: request)
                case .unacceptableStatus: throw BehaviorFakes.unacceptable(request, status: 500)
                case .thrownError: throw TestError("boom")
                case .cancellation:
                    await BehaviorFakes.suspendUntilCancelled()
                    throw CancellationError()
                }
            }
        }
        if outcome == .cancellation {
            try await BehaviorFakes.waitUntil { provider.begun.count == 1 }
            call.cancel()
        }
        let result = await call.result
        #expect((try? result.get()) != nil ? outcome == .success : outcome != .success)
        #expect(provider.begun.count == 1)
        #expect(provider.ended == provider.begun.map(\.id))
    }

    @Test func expiryDuringTheCallEndsTheTaskOnceAndTheCallStillCompletes() async throws {
        let provider = FakeProvider()
        let behavior = BackgroundTaskBehavior(provider: provider)
        let endedAtExpiry = LockedBox<[Int]>([])
        let (response, _) = try await behavior.intercept(BehaviorFakes.request, context: RequestContext()) {
            request in
            provider.expireAll()
            endedAtExpiry.withLock { $0 = provider.ended }
            return BehaviorFakes.response(to: request, status: 201)
        }
        #expect(response.status.code == 201)
        #expect(endedAtExpiry.current == [1])
        #expect(provider.ended == [1])
    }

    @Test func expiryWhileTheTaskIsBeingBegunEndsItAsSoonAsItsIdentifierIsKnown() async throws {
        let provider = FakeProvider(expiresWhileBeginning: true)
        let behavior = BackgroundTaskBehavior(provider: provider)
        let endedBeforeSend = LockedBox<[Int]>([])
        _ = try await behavior.intercept(BehaviorFakes.request, context: RequestContext()) { request in
            endedBeforeSend.withLock { $0 = provider.ended }
            return BehaviorFakes.response(to: request)
        }
        #expect(endedBeforeSend.current == [1])
        #expect(provider.ended == [1])
    }

    @Test func anExpiryArrivingAfterTheCallEndedEndsNothingMore() async throws {
        let provider = FakeProvider()
        _ = try await BackgroundTaskBehavior(provider: provider).intercept(
            BehaviorFakes.request, context: RequestContext(), next: BehaviorFakes.ok)
        provider.expireAll()
        provider.expireAll()
        #expect(provider.ended == [1])
    }

    @Test func withoutBackgroundTimeTheCallSimplyRuns() async throws {
        let provider = FakeProvider(grantsTime: false)
        let (response, _) = try await BackgroundTaskBehavior(provider: provider).intercept(
            BehaviorFakes.request, context: RequestContext(), next: BehaviorFakes.ok)
        #expect(response.status.code == 200)
        #expect(provider.begun.map(\.name) == ["Networking request"])
        #expect(provider.ended.isEmpty)
    }

    @Test func twoHundredConcurrentCallsWithRandomExpiriesEndEveryTaskExactlyOnce() async throws {
        var generator = BehaviorFakes.SeededGenerator(seed: 0xB6_7A5C)
        let plans = (0..<200).map { _ in
            (expires: Bool.random(using: &generator), fails: Bool.random(using: &generator))
        }
        let provider = FakeProvider()
        let behavior = BackgroundTaskBehavior(provider: provider)
        await withTaskGroup(of: Void.self) { group in
            for plan in plans {
                group.addTask {
                    _ = try? await behavior.intercept(BehaviorFakes.request, context: RequestContext()) { request in
                        if plan.expires { provider.expire(provider.latestID) }
                        await Task.yield()
                        if plan.fails { throw TestError() }
                        return BehaviorFakes.response(to: request)
                    }
                }
            }
        }
        let ended = provider.ended
        #expect(provider.begun.count == 200)
        #expect(ended.count == 200)
        #expect(Set(ended) == Set(provider.begun.map(\.id)))
    }

    @Test func withoutUIKitTheDefaultProviderGivesNoTimeAndTheCallRuns() async throws {
        #expect(await NoBackgroundTaskProvider().beginTask(named: "x", expirationHandler: {}) == nil)
        #if !canImport(UIKit)
            let behavior: BackgroundTaskBehavior = .backgroundTask()
            #expect(behavior.provider is NoBackgroundTaskProvider)
            let (response, _) = try await behavior.intercept(
                BehaviorFakes.request, context: RequestContext(), next: BehaviorFakes.ok)
            #expect(response.status.code == 200)
        #endif
    }
}

/// Records begins and ends, and fires expiration handlers on demand, like the system would.
private final class FakeProvider: BackgroundTaskProvider {
    private struct State {
        var begun: [(name: String, id: Int)] = []
        var ended: [Int] = []
        var handlers: [Int: @Sendable () -> Void] = [:]
    }

    private let state = LockedBox(State())
    private let grantsTime: Bool
    private let expiresWhileBeginning: Bool

    init(grantsTime: Bool = true, expiresWhileBeginning: Bool = false) {
        self.grantsTime = grantsTime
        self.expiresWhileBeginning = expiresWhileBeginning
    }

    var begun: [(name: String, id: Int)] { state.withLock { $0.begun } }
    var ended: [Int] { state.withLock { $0.ended } }
    var latestID: Int { state.withLock { $0.begun.last?.id ?? 0 } }

    func beginTask(named name: String, expirationHandler: @escaping @Sendable () -> Void) async -> Int? {
        let id: Int = state.withLock { state in
            let id = state.begun.count + 1
            state.begun.append((name, id))
            // Without time granted there is no task, and the system keeps no handler.
            if grantsTime { state.handlers[id] = expirationHandler }
            return id
        }
        guard grantsTime else { return nil }
        if expiresWhileBeginning { expirationHandler() }
        return id
    }

    func endTask(_ identifier: Int) {
        // The system lets go of a task's expiration handler when the task ends; keeping it would hold the
        // behavior's state and this provider in a cycle (AddressSanitizer's leak check found it).
        state.withLock {
            $0.ended.append(identifier)
            $0.handlers[identifier] = nil
        }
    }

    /// Fires the expiration handler of task `id`, as the system does when background time runs out.
    func expire(_ id: Int) {
        let handler = state.withLock { $0.handlers[id] }
        handler?()
    }

    func expireAll() {
        let handlers = state.withLock { Array($0.handlers.values) }
        for handler in handlers { handler() }
    }
}
