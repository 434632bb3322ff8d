import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// The rate limiter against the fault server: hit counts prove that a bucket of B lets exactly B calls through
    /// at once, and that a 429 with `Retry-After` pauses the host for later calls. Refills and pauses run on a
    /// virtual clock the tests advance.
    @Suite struct FaultRateLimitTests {
        private func send(_ client: NetworkClient, _ path: String, _ query: [URLQueryItem]) async -> NetworkError? {
            do {
                _ = try await client.send(NetworkRequest<Data>(path: path, query: query))
                return nil
            } catch let error as NetworkError {
                return error
            } catch {
                Issue.record("expected a NetworkError, got \(error)")
                return nil
            }
        }

        @Test func aBucketOfThreeSendsThreeOfFiveCallsAndRefusesTheRestWithoutAHit() async throws {
            let clock = TestClock(mode: .manual)
            let settings = try RateLimitSettings(capacity: 3, tokensPerSecond: 0.1, maximumWait: .seconds(5))
            let client = try await FaultServer.client(behavior: .rateLimit(settings, clock: clock))
            let key = FaultServer.newKey("limit-burst")
            var refused = 0
            for _ in 0..<5 {
                let error = await send(client, "/status/200", Faults.query(key))
                if error?.kind == .behavior("RateLimitBehavior"), error?.underlyingError is RateLimitedError {
                    refused += 1
                }
            }
            #expect(refused == 2)
            #expect(try await FaultServer.hits(key).count == 3)
            clock.advance(by: .seconds(10))
            #expect(await send(client, "/status/200", Faults.query(key)) == nil)
            #expect(try await FaultServer.hits(key).count == 4)
        }

        @Test func a429WithRetryAfterPausesLaterCallsToTheHost() async throws {
            let clock = TestClock(mode: .manual)
            let settings = try RateLimitSettings(capacity: 10, tokensPerSecond: 10, maximumWait: .seconds(5))
            let client = try await FaultServer.client(behavior: .rateLimit(settings, clock: clock))
            let throttled = FaultServer.newKey("limit-429")
            let query = Faults.query(throttled, ["retry_after": "3"])
            #expect(await send(client, "/flaky/1/429", query)?.kind == .unacceptableStatus(429))
            #expect(try await FaultServer.hits(throttled).count == 1)

            // Paused for 3 s: a later call to the same host waits on the clock and sends nothing meanwhile.
            let later = FaultServer.newKey("limit-later")
            let waiting = Task { await send(client, "/status/200", Faults.query(later)) }
            await clock.waitForSleepers()
            #expect(abs((clock.sleeps.last ?? .zero).timeInterval - 3.1) < 0.001)
            #expect(try await FaultServer.hits(later).count == 0)
            clock.advance(by: .seconds(3.1))
            #expect(await waiting.value == nil)
            #expect(try await FaultServer.hits(later).count == 1)
        }

        @Test func aPauseLongerThanTheMaximumWaitFailsLaterCallsAtOnce() async throws {
            let clock = TestClock(mode: .manual)
            let client = try await FaultServer.client(behavior: .rateLimit(clock: clock))
            let throttled = FaultServer.newKey("limit-429-long")
            #expect(
                await send(client, "/flaky/1/429", Faults.query(throttled, ["retry_after": "30"]))?.kind
                    == .unacceptableStatus(429))
            let later = FaultServer.newKey("limit-refused")
            let error = await send(client, "/status/200", Faults.query(later))
            let wait = (error?.underlyingError as? RateLimitedError)?.wait ?? .zero
            #expect(abs(wait.timeInterval - 30.1) < 0.001)
            #expect(try await FaultServer.hits(later).count == 0)
            #expect(try await FaultServer.hits(throttled).count == 1)
        }
    }
}
