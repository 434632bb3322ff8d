import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `RateLimitBehavior` alone, with fake `next` closures and a virtual clock: no client, no network, no sleeping.
@Suite struct RateLimitBehaviorTests {
    static let request = BehaviorFakes.request
    static let hostKey = "api.example.test:443"

    static func limiter(
        capacity: Int = 2, rate: Double = 1, maximumWait: Double = 5, clock: TestClock,
        store: InMemoryRateLimitStore = InMemoryRateLimitStore()
    ) throws -> RateLimitBehavior {
        RateLimitBehavior(
            settings: try RateLimitSettings(
                capacity: capacity, tokensPerSecond: rate, maximumWait: .seconds(maximumWait)),
            store: store, clock: clock)
    }

    /// Calls `limiter` with a `next` that counts its calls.
    static func call(
        _ limiter: RateLimitBehavior, sends: LockedBox<Int>, context: RequestContext = RequestContext(),
        url: String? = nil
    ) async throws -> Int {
        let request = url.map { HTTPRequest(url: URL(string: $0)!) } ?? Self.request
        let (response, _) = try await limiter.intercept(request, context: context) { request in
            sends.withLock { $0 += 1 }
            return BehaviorFakes.response(to: request)
        }
        return response.status.code
    }

    @Test func aBurstUpToTheCapacityGoesAtOnceThenACallWaitsForTheRefill() async throws {
        let clock = TestClock(mode: .manual)
        let limiter = try Self.limiter(clock: clock)
        let sends = LockedBox(0)
        _ = try await Self.call(limiter, sends: sends)
        _ = try await Self.call(limiter, sends: sends)
        #expect(sends.current == 2)
        let third = Task { try await Self.call(limiter, sends: sends) }
        await clock.waitForSleepers()
        #expect(clock.sleeps.contains(.seconds(1)))
        #expect(sends.current == 2)
        clock.advance(by: .seconds(1))
        #expect(try await third.value == 200)
        #expect(sends.current == 3)
    }

    /// A clock that moves on by a microsecond at every reading, as a real one does between two readings.
    struct TickingClock: NetworkClock {
        let ticks = LockedBox(Duration.seconds(100))
        func now() -> Duration {
            ticks.withLock {
                $0 += .microseconds(1)
                return $0
            }
        }
        func date() -> Date { Date(timeIntervalSince1970: 1_700_000_000) }
        func sleep(for duration: Duration) async throws { ticks.withLock { $0 += duration } }
    }

    @Test func theFirstCallToAHostTakesItsTokenAtOnceEvenWithNoWaitAllowed() async throws {
        // The new bucket is full from the reading the call takes its token at: a later reading for the bucket's
        // start once made the first call read as paused ("next token is 0.0 s away") with capacity 1.
        let limiter = RateLimitBehavior(
            settings: try RateLimitSettings(capacity: 1, tokensPerSecond: 1, maximumWait: .zero),
            clock: TickingClock())
        let sends = LockedBox(0)
        #expect(try await Self.call(limiter, sends: sends) == 200)
        #expect(sends.current == 1)
        await #expect(throws: RateLimitedError.self) { try await Self.call(limiter, sends: sends) }
        #expect(sends.current == 1)
    }

    @Test func aWaitLongerThanTheMaximumFailsAtOnceWithoutI_O() async throws {
        let clock = TestClock(mode: .manual)
        let limiter = try Self.limiter(capacity: 1, rate: 0.1, maximumWait: 5, clock: clock)
        let sends = LockedBox(0)
        _ = try await Self.call(limiter, sends: sends)
        let error = try await expectError(RateLimitedError.self) { try await Self.call(limiter, sends: sends) }
        #expect(error == RateLimitedError(key: Self.hostKey, wait: .seconds(10), allowed: .seconds(5)))
        #expect(
            error?.description
                == "calls to api.example.test:443 are rate-limited: the next token is 10.0 s away, more than the "
                + "5.0 s allowed; the call was not sent")
        #expect(sends.current == 1)
        #expect(clock.sleeps.isEmpty)
        let (chained, chainSends) = try await BehaviorFakes.failureInChain(limiter)
        #expect(chained?.kind == .behavior("RateLimitBehavior"))
        #expect(chained?.underlyingError is RateLimitedError)
        #expect(chainSends == 0)
    }

    @Test func aWaitPastTheDeadlineFailsAtOnce() async throws {
        let clock = TestClock(mode: .manual)
        let limiter = try Self.limiter(capacity: 1, rate: 1, maximumWait: 60, clock: clock)
        let sends = LockedBox(0)
        _ = try await Self.call(limiter, sends: sends)
        let context = RequestContext(deadline: CallDeadline(limit: .milliseconds(500), clock: clock), clock: clock)
        let error = try await expectError(RateLimitedError.self) {
            try await Self.call(limiter, sends: sends, context: context)
        }
        #expect(error?.allowed == .milliseconds(500))
        #expect(sends.current == 1)
    }

    @Test func theAttemptTimeLimitEndsAWaitAsATimeout() async throws {
        let clock = TestClock(mode: .manual)
        let limiter = try Self.limiter(capacity: 1, rate: 0.5, maximumWait: 60, clock: clock)
        let sends = LockedBox(0)
        _ = try await Self.call(limiter, sends: sends)
        let context = RequestContext(attemptTimeout: .seconds(1), clock: clock)
        let waiting = Task { try await Self.call(limiter, sends: sends, context: context) }
        await clock.waitForSleepers(1)  // the wait for a token
        await clock.waitForTimers(1)  // the attempt's time limit on it
        clock.advance(by: .seconds(1))
        let error = try await expectNetworkError { try await waiting.value }
        #expect(error?.kind == .timedOut(.attempt))
        #expect(sends.current == 1)
        let store = try #require(limiter.store as? InMemoryRateLimitStore)
        #expect(store.bucket(for: Self.hostKey)?.waiting == 0)
    }

    @Test func aWaiterCancelledWhileWaitingTakesNoToken() async throws {
        let clock = TestClock(mode: .manual)
        let store = InMemoryRateLimitStore()
        let limiter = try Self.limiter(capacity: 1, rate: 1, clock: clock, store: store)
        let sends = LockedBox(0)
        _ = try await Self.call(limiter, sends: sends)
        let waiting = Task { try await Self.call(limiter, sends: sends) }
        await clock.waitForSleepers()
        #expect(store.bucket(for: Self.hostKey)?.waiting == 1)
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(store.bucket(for: Self.hostKey)?.waiting == 0)
        clock.advance(by: .seconds(1))
        #expect(try await Self.call(limiter, sends: sends) == 200)
        #expect(store.bucket(for: Self.hostKey)?.granted == 2)
        #expect(sends.current == 2)
    }

    @Test func a429WithRetryAfterPausesTheHostForEveryCallUpToTheCap() async throws {
        let clock = TestClock(mode: .manual)
        let store = InMemoryRateLimitStore()
        let limiter = RateLimitBehavior(
            settings: try RateLimitSettings(capacity: 10, tokensPerSecond: 10, maximumPause: .seconds(30)),
            store: store, clock: clock)
        for (header, pause) in [("3", 3.0), ("86400", 30.0)] {
            let throttled = BehaviorFakes.response(to: Self.request, status: 429, headers: ["Retry-After": header]).0
            _ = try? await limiter.intercept(Self.request, context: RequestContext()) { _ in
                throw NetworkError(
                    .unacceptableStatus(429), requestName: "GET /items", message: "429", response: throttled)
            }
            let bucket = try #require(store.bucket(for: Self.hostKey))
            #expect(bucket.isPaused(at: clock.now()))
            #expect(bucket.updatedAt == clock.now() + .seconds(pause))
            #expect(bucket.tokens == 0)
            // After the pause the bucket refills from empty: one token a tenth of a second later.
            clock.advance(by: .seconds(pause + 0.1))
        }
        let sends = LockedBox(0)
        _ = try await Self.call(limiter, sends: sends, url: "https://other.example.test/")
        #expect(sends.current == 1, "another host is not paused")
    }

    @Test func otherFailuresNeverPause() async throws {
        let clock = TestClock(mode: .manual)
        let store = InMemoryRateLimitStore()
        let limiter = try Self.limiter(clock: clock, store: store)
        let unavailable = BehaviorFakes.response(to: Self.request, status: 503, headers: ["Retry-After": "30"]).0
        for error in [
            NetworkError(.unacceptableStatus(503), requestName: "x", message: "503", response: unavailable),
            NetworkError(.unacceptableStatus(429), requestName: "x", message: "429 without Retry-After"),
        ] {
            _ = try? await limiter.intercept(Self.request, context: RequestContext()) { _ in throw error }
        }
        #expect(store.bucket(for: Self.hostKey)?.isPaused(at: clock.now()) == false)
    }

    @Test func aMaximumWaitOfZeroNeverWaits() async throws {
        let clock = TestClock(mode: .manual)
        let limiter = try Self.limiter(capacity: 1, rate: 1000, maximumWait: 0, clock: clock)
        let sends = LockedBox(0)
        _ = try await Self.call(limiter, sends: sends)
        await #expect(throws: RateLimitedError.self) { try await Self.call(limiter, sends: sends) }
        #expect(sends.current == 1)
        #expect(clock.sleeps.isEmpty)
    }
}
