import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// 1,000 concurrent calls through one limiter, with seeded random outcomes and cancellations while a driver moves
/// the virtual clock: at the end nothing is left waiting, the bucket holds between 0 and its capacity, every
/// token taken reached `next`, and no more calls went than the bucket allows over the time that passed.
@Suite struct RateLimitStressTests {
    enum Plan: CaseIterable {
        case success, serverError, throttled, cancelled
    }

    @Test(arguments: [UInt64(7), 99, 2026])
    func thousandConcurrentCallsKeepTheBucketConsistent(seed: UInt64) async throws {
        var generator = BehaviorFakes.SeededGenerator(seed: seed)
        let plans = (0..<1_000).map { _ in Plan.allCases.randomElement(using: &generator) ?? .success }
        let clock = TestClock(mode: .manual)
        let store = InMemoryRateLimitStore()
        let settings = try RateLimitSettings(
            capacity: 10, tokensPerSecond: 100, maximumWait: .seconds(2), maximumPause: .milliseconds(50))
        let limiter = RateLimitBehavior(settings: settings, store: store, clock: clock)
        let nextCalls = LockedBox(0)
        let outcomes = LockedBox<[String: Int]>([:])
        let request = BehaviorFakes.request
        let throttled = BehaviorFakes.response(to: request, status: 429, headers: ["Retry-After": "1"]).0

        let tasks = plans.map { plan in
            Task {
                let outcome: String
                do {
                    _ = try await limiter.intercept(request, context: RequestContext()) { request in
                        nextCalls.withLock { $0 += 1 }
                        await Task.yield()
                        switch plan {
                        case .success: return BehaviorFakes.response(to: request)
                        case .serverError: throw BehaviorFakes.unacceptable(request, status: 503)
                        case .throttled:
                            throw NetworkError(
                                .unacceptableStatus(429), requestName: "GET /items", message: "429",
                                response: throttled)
                        case .cancelled:
                            await BehaviorFakes.suspendUntilCancelled()
                            throw CancellationError()
                        }
                    }
                    outcome = "sent"
                } catch is RateLimitedError {
                    outcome = "limited"
                } catch is CancellationError {
                    outcome = "cancelled"
                } catch {
                    outcome = "sent"
                }
                outcomes.withLock { $0[outcome, default: 0] += 1 }
            }
        }
        let done = LockedBox(false)
        let driver = Task {
            while !done.current {
                clock.advance(by: .milliseconds(10))
                await Task.yield()
            }
        }
        for (index, task) in tasks.enumerated() where plans[index] == .cancelled { task.cancel() }
        for task in tasks { await task.value }
        done.withLock { $0 = true }
        await driver.value

        let bucket = try #require(store.bucket(for: "api.example.test:443"))
        let seen = outcomes.current
        #expect(seen.values.reduce(0, +) == 1_000)
        #expect(bucket.waiting == 0)
        #expect(bucket.tokens >= 0 && bucket.tokens <= Double(settings.capacity))
        #expect(bucket.granted == nextCalls.current)
        #expect(bucket.granted >= seen["sent", default: 0])
        let allowedByTime = Double(settings.capacity) + clock.now().timeInterval * settings.tokensPerSecond
        #expect(Double(bucket.granted) <= allowedByTime + 1)
        #expect(seen["limited", default: 0] > 0, "the seeded mix must exceed the maximum wait")
    }
}
