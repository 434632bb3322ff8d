import Foundation
import NetworkingTesting
import Testing

@testable import Networking
@testable import NetworkingHTTP
@testable import NetworkingCore
@testable import NetworkingTLS
@testable import NetworkingURLSession
@testable import NetworkingAuth
@testable import NetworkingResilience
@testable import NetworkingHTTPCache
@testable import NetworkingCookies
@testable import NetworkingObservability
@testable import NetworkingTransfers
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct TokenRefreshBehaviorTests {
    /// Counts refreshes and hands out "new", "new2", ...; can be held at a gate and made to fail.
    final class CountingRefresher: TokenRefresher {
        let calls = LockedCounter()
        let completed = LockedCounter()
        let gate: Gate?
        let failure: TestError?

        init(gate: Gate? = nil, failure: TestError? = nil) {
            self.gate = gate
            self.failure = failure
        }

        func refresh(replacing expired: AccessCredential?) async throws -> AccessCredential {
            calls.increment()
            if let gate { await gate.wait() }
            completed.increment()
            if let failure { throw failure }
            return AccessCredential(token: calls.value == 1 ? "new" : "new\(calls.value)")
        }
    }

    static let old = AccessCredential(token: "old")

    func bearer(_ request: HTTPRequest) -> String? {
        request.headerFields["Authorization"]
    }

    @Test func hundredConcurrent401sCauseExactlyOneRefreshAndHundredReplays() async throws {
        let rejected = Barrier(100)
        let transport = MockTransport { request in
            if request.headerFields["Authorization"] == "Bearer new" {
                return (HTTPResponse(status: 200), Data())
            }
            await rejected.arrive()
            return (HTTPResponse(status: 401), Data())
        }
        let refresher = CountingRefresher()
        let auth = TokenRefreshBehavior(initial: Self.old, refresher: refresher, clock: TestClock())
        let client = try makeClient(transport: transport, behavior: auth)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<100 { group.addTask { try await client.send(NetworkRequest<Void>(path: "/me/\(index)")) } }
            try await group.waitForAll()
        }
        #expect(refresher.calls.value == 1)
        #expect(transport.requestCount == 200)
        #expect(transport.requests.filter { bearer($0) == "Bearer old" }.count == 100)
        #expect(transport.requests.filter { bearer($0) == "Bearer new" }.count == 100)
        #expect(auth.credential?.token == "new")
    }

    @Test func aFailedRefreshReachesEveryWaiterAsATypedError() async throws {
        let transport = answering(401)
        let refreshMayFail = Gate()
        let refresher = CountingRefresher(gate: refreshMayFail, failure: TestError("auth server down"))
        let auth = TokenRefreshBehavior(initial: Self.old, refresher: refresher, clock: TestClock())
        let client = try makeClient(transport: transport, behavior: auth)
        let calls = (0..<10).map { _ in
            Task { () -> NetworkError? in
                do { try await client.send(NetworkRequest<Void>(path: "/me")) } catch let error as NetworkError {
                    return error
                } catch {}
                return nil
            }
        }
        // A 401 arriving after a failed refresh may start another one; fail only once all ten have joined.
        #expect(await eventually { auth.waitingCallCount == 10 })
        refreshMayFail.open()
        var errors: [NetworkError?] = []
        for call in calls { errors.append(await call.value) }
        #expect(refresher.calls.value == 1)
        #expect(transport.requestCount == 10)
        for error in errors {
            #expect(error?.kind == .behavior("TokenRefreshBehavior"))
            guard case .refreshFailed(let cause)? = error?.underlyingError as? TokenRefreshError else {
                Issue.record("expected refreshFailed, got \(String(describing: error))")
                continue
            }
            #expect(cause as? TestError == TestError("auth server down"))
        }
    }

    @Test func theLoopGuardStopsAServerThatKeepsAnswering401() async throws {
        let clock = TestClock()
        let transport = answering(401)
        let refresher = CountingRefresher()
        var settings = TokenRefreshSettings()
        settings.maximumRefreshes = 2
        settings.window = .seconds(60)
        let client = try makeClient(
            transport: transport,
            behavior: TokenRefreshBehavior(
                initial: Self.old, refresher: refresher, clock: clock, settings: settings))
        for _ in 0..<2 {
            let error = try await expectNetworkError { try await client.send(NetworkRequest<Void>(path: "/me")) }
            #expect(error?.kind == .unacceptableStatus(401))
        }
        #expect(refresher.calls.value == 2)
        #expect(transport.requestCount == 4, "each call is replayed exactly once")
        let blocked = try await expectNetworkError { try await client.send(NetworkRequest<Void>(path: "/me")) }
        #expect(blocked?.kind == .behavior("TokenRefreshBehavior"))
        guard case .refreshLimitReached(let limit, _)? = blocked?.underlyingError as? TokenRefreshError else {
            Issue.record("expected refreshLimitReached, got \(String(describing: blocked))")
            return
        }
        #expect(limit == 2)
        #expect(refresher.calls.value == 2)
        #expect(transport.requestCount == 5)
        clock.advance(by: .seconds(61))
        _ = try await expectNetworkError { try await client.send(NetworkRequest<Void>(path: "/me")) }
        #expect(refresher.calls.value == 3, "the window moved on, so a refresh is allowed again")
    }

    @Test func aCredentialReplacedWhileACallWasInFlightIsNotRefreshedAgain() async throws {
        let slowCallMayAnswer = Gate()
        let transport = MockTransport { request in
            if request.headerFields["Authorization"] == "Bearer new" {
                return (HTTPResponse(status: 200), Data())
            }
            if request.url?.path == "/v1/slow" { await slowCallMayAnswer.wait() }
            return (HTTPResponse(status: 401), Data())
        }
        let refresher = CountingRefresher()
        let auth = TokenRefreshBehavior(initial: Self.old, refresher: refresher, clock: TestClock())
        let client = try makeClient(transport: transport, behavior: auth)
        let slow = Task { try await client.send(NetworkRequest<Void>(path: "/slow")) }
        #expect(await eventually { transport.requestCount == 1 })
        try await client.send(NetworkRequest<Void>(path: "/fast"))
        #expect(refresher.calls.value == 1)
        slowCallMayAnswer.open()
        try await slow.value
        #expect(refresher.calls.value == 1)
        #expect(
            transport.requests.map { bearer($0) ?? "-" } == ["Bearer old", "Bearer old", "Bearer new", "Bearer new"])
    }

    @Test func cancellingOneWaiterDoesNotCancelTheRefreshForTheOthers() async throws {
        let refreshMayFinish = Gate()
        let transport = MockTransport { request in
            (HTTPResponse(status: request.headerFields[.authorization] == "Bearer new" ? 200 : 401), Data())
        }
        let refresher = CountingRefresher(gate: refreshMayFinish)
        let client = try makeClient(
            transport: transport,
            behavior: TokenRefreshBehavior(initial: Self.old, refresher: refresher, clock: TestClock()))
        let calls = (0..<3).map { index in Task { try await client.send(NetworkRequest<Void>(path: "/c/\(index)")) } }
        #expect(await eventually { transport.requestCount == 3 && refresher.calls.value == 1 })
        calls[0].cancel()
        await #expect(throws: CancellationError.self) { try await calls[0].value }
        #expect(refresher.completed.value == 0, "the cancelled waiter left while the refresh was still running")
        refreshMayFinish.open()
        try await calls[1].value
        try await calls[2].value
        #expect(refresher.calls.value == 1)
        #expect(refresher.completed.value == 1)
    }

    @Test func aCredentialAboutToExpireIsRefreshedBeforeSending() async throws {
        let clock = TestClock()
        let transport = answering()
        let refresher = CountingRefresher()
        let expiring = AccessCredential(token: "old", expiresAt: clock.date().addingTimeInterval(10))
        let client = try makeClient(
            transport: transport, behavior: TokenRefreshBehavior(initial: expiring, refresher: refresher, clock: clock))
        try await client.send(NetworkRequest<Void>(path: "/me"))
        #expect(refresher.calls.value == 1)
        #expect(transport.requests.map { bearer($0) } == ["Bearer new"])
    }

    @Test func aValidCredentialIsSentWithoutRefreshing() async throws {
        let clock = TestClock()
        let transport = answering()
        let refresher = CountingRefresher()
        let valid = AccessCredential(token: "old", expiresAt: clock.date().addingTimeInterval(3600))
        let client = try makeClient(
            transport: transport, behavior: TokenRefreshBehavior(initial: valid, refresher: refresher, clock: clock))
        try await client.send(NetworkRequest<Void>(path: "/me"))
        try await client.send(NetworkRequest<Void>(path: "/me"))
        #expect(refresher.calls.value == 0)
        #expect(transport.requests.map { bearer($0) } == ["Bearer old", "Bearer old"])
    }

    @Test func withoutAnInitialCredentialTheFirstCallRefreshes() async throws {
        let transport = answering()
        let refresher = CountingRefresher()
        let client = try makeClient(
            transport: transport,
            behavior: .tokenRefresh(initial: nil, clock: TestClock()) { _ in
                refresher.calls.increment()
                return AccessCredential(token: "first")
            })
        try await client.send(NetworkRequest<Void>(path: "/me"))
        #expect(refresher.calls.value == 1)
        #expect(transport.requests.map { bearer($0) } == ["Bearer first"])
    }

    // MARK: Time limits (issue 10.9)

    /// A refresher that never returns: it waits until its task is cancelled.
    struct StuckRefresher: TokenRefresher {
        func refresh(replacing expired: AccessCredential?) async throws -> AccessCredential {
            await BehaviorFakes.suspendUntilCancelled()
            throw CancellationError()
        }
    }

    @Test func aRefresherThatNeverReturnsEndsTheCallAtTheAttemptTimeout() async throws {
        let clock = TestClock(mode: .manual)
        let transport = answering()
        let auth = TokenRefreshBehavior(initial: nil, refresher: StuckRefresher(), clock: clock)
        let client = try makeClient(
            transport: transport, behavior: auth, clock: clock, timeout: .milliseconds(500), deadline: nil)
        let call = Task { try await client.send(NetworkRequest<Void>(path: "/me")) }
        await clock.waitForTimers(1)
        #expect(clock.scheduledDelays == [.milliseconds(500)])
        clock.advance(by: .milliseconds(500))
        let error = try await expectNetworkError { try await call.value }
        #expect(error?.kind == .timedOut(.attempt))
        #expect(error?.message == "the credential refresh took longer than the attempt time limit of 0.5 seconds")
        #expect(transport.requestCount == 0)
    }

    @Test func aSlowRefresherEndsTheCallAtItsDeadline() async throws {
        let clock = TestClock(mode: .manual)
        let transport = answering()
        let refresher = ClosureTokenRefresher { _ in
            try await clock.sleep(for: .seconds(4))
            return AccessCredential(token: "late")
        }
        let auth = TokenRefreshBehavior(initial: nil, refresher: refresher, clock: clock)
        let client = try makeClient(
            transport: transport, behavior: auth, clock: clock, timeout: .seconds(60), deadline: .seconds(1))
        let call = Task { try await client.send(NetworkRequest<Void>(path: "/me")) }
        await clock.waitForSleepers(1)
        await clock.waitForTimers(1)
        #expect(clock.sleeps == [.seconds(4)])
        #expect(clock.scheduledDelays == [.seconds(1)])
        clock.advance(by: .seconds(1))
        let error = try await expectNetworkError { try await call.value }
        #expect(error?.kind == .timedOut(.call))
        #expect(error?.message == "the call's deadline of 1.0 seconds passed while waiting for the credential refresh")
        #expect(transport.requestCount == 0)
        // The refresh goes on for whoever waits next; it is not cancelled with the call.
        clock.advance(by: .seconds(3))
        try await BehaviorFakes.waitUntil { auth.credential?.token == "late" }
    }

    @Test func cancellingACallWaitingForARefreshEndsItAtOnce() async throws {
        let auth = TokenRefreshBehavior(initial: nil, refresher: StuckRefresher(), clock: TestClock())
        let transport = answering()
        let client = try makeClient(transport: transport, behavior: auth, timeout: .seconds(60), deadline: nil)
        let call = Task { try await client.send(NetworkRequest<Void>(path: "/me")) }
        try await BehaviorFakes.waitUntil { auth.waitingCallCount == 1 }
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(transport.requestCount == 0)
    }

    @Test func aRefreshEveryCallGaveUpOnIsNoLongerWaitedForAndTheNextCallStartsAnother() async throws {
        // Given a refresh that hangs, and the only call waiting for it cancelled
        let refresher = ReleasableRefresher()
        defer { refresher.release.continuation.finish() }
        let auth = TokenRefreshBehavior(initial: nil, refresher: refresher, clock: TestClock())
        let transport = answering()
        let client = try makeClient(transport: transport, behavior: auth, timeout: .seconds(60), deadline: nil)
        let abandoned = try await Self.callWhoseRefreshIsAbandoned(client, auth)
        #expect(throws: CancellationError.self) { try abandoned.get() }
        // When another call comes
        try await client.send(NetworkRequest<Void>(path: "/me"))
        // Then it started a refresh of its own instead of waiting forever for the abandoned one
        #expect(refresher.calls.withLock { $0 } == 2)
        #expect(transport.lastRequest?.header("Authorization") == "Bearer fresh-2")
        #expect(auth.waitingCallCount == 0)
    }

    /// Starts a call that waits for the first refresh, cancels it once it waits (the only waiter, so the refresh is
    /// abandoned), and returns how the call ended.
    static func callWhoseRefreshIsAbandoned(_ client: NetworkClient, _ auth: TokenRefreshBehavior) async throws
        -> Result<Void, any Error>
    {
        let first = Task { try await client.send(NetworkRequest<Void>(path: "/me")) }
        try await BehaviorFakes.waitUntil { auth.waitingCallCount == 1 }
        first.cancel()
        return await first.result
    }

    /// Hangs on its first refresh until released, then answers `late`; answers `fresh-N` to every later one.
    final class ReleasableRefresher: TokenRefresher {
        let calls = LockedBox(0)
        let release = AsyncStream<Void>.makeStream()
        func refresh(replacing expired: AccessCredential?) async throws -> AccessCredential {
            let call = calls.withLock { count -> Int in
                count += 1
                return count
            }
            guard call == 1 else { return AccessCredential(token: "fresh-\(call)") }
            for await _ in release.stream { break }
            return AccessCredential(token: "late")
        }
    }

    @Test func anAbandonedRefreshThatFinishesLateStoresItsCredentialOnlyIfNothingNewerWasStored() async throws {
        // Given a first refresh everybody gave up on
        let refresher = ReleasableRefresher()
        let auth = TokenRefreshBehavior(initial: nil, refresher: refresher, clock: TestClock())
        let transport = answering()
        let client = try makeClient(transport: transport, behavior: auth, timeout: .seconds(60), deadline: nil)
        _ = try await Self.callWhoseRefreshIsAbandoned(client, auth)
        // When a second refresh stores fresh-2, then the first one finishes
        try await client.send(NetworkRequest<Void>(path: "/me"))
        #expect(auth.credential?.token == "fresh-2")
        refresher.release.continuation.yield()
        refresher.release.continuation.finish()
        // Then the late, older credential never replaces the newer one
        for _ in 0..<1_000 { await Task.yield() }
        #expect(auth.credential?.token == "fresh-2")
        try await client.send(NetworkRequest<Void>(path: "/me"))
        #expect(transport.lastRequest?.header("Authorization") == "Bearer fresh-2")
    }

    @Test func anAbandonedRefreshThatFinishesWithNothingNewerStoresItsCredential() async throws {
        let refresher = ReleasableRefresher()
        let auth = TokenRefreshBehavior(initial: nil, refresher: refresher, clock: TestClock())
        let client = try makeClient(transport: answering(), behavior: auth, timeout: .seconds(60), deadline: nil)
        _ = try await Self.callWhoseRefreshIsAbandoned(client, auth)
        refresher.release.continuation.yield()
        try await BehaviorFakes.waitUntil { auth.credential?.token == "late" }
        #expect(refresher.calls.withLock { $0 } == 1)
    }
}
