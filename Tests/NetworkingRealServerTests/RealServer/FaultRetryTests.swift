import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// Fail-N-then-succeed against the fault server's `/flaky/N/CODE` (Tests/README.md F15-F17): a GET is retried
    /// exactly as the policy says, a POST is never sent twice unless the caller opted in, and `Retry-After` is obeyed.
    /// Waits run on a virtual clock, so the tests assert the waits without spending them.
    @Suite struct FaultRetryTests {
        struct Flaky: Decodable, Sendable {
            let attempt: Int
            let ok: Bool
        }

        /// A client retrying with `policy` on `clock`.
        private func client(_ policy: RetrySettings = .default, clock: TestClock = TestClock()) async throws
            -> NetworkClient
        {
            try await FaultServer.client(behavior: .retry(policy, clock: clock))
        }

        @Test func getSucceedsOnTheThirdAttemptAfterTwo503s() async throws {
            let key = FaultServer.newKey("flaky-503")
            let clock = TestClock()
            let value = try await client(clock: clock).send(
                NetworkRequest<Flaky>(path: "/flaky/2/503", query: Faults.query(key)))
            #expect(value.attempt == 3)
            #expect(try await FaultServer.hits(key).count == 3)
            #expect(clock.sleeps.count == 2)
            #expect(clock.sleeps.allSatisfy { $0 <= RetrySettings.defaultMaximumDelay })
        }

        @Test(arguments: [1, 3, 5])
        func getGivesUpAfterExactlyTheAttemptBudget(attempts: Int) async throws {
            let key = FaultServer.newKey("flaky-budget")
            let error = try await expectNetworkError {
                try await client(RetrySettings(maximumAttempts: attempts)).send(
                    NetworkRequest<Flaky>(path: "/flaky/10/503", query: Faults.query(key)))
            }
            #expect(error?.kind == .unacceptableStatus(503))
            #expect(try await FaultServer.hits(key).count == attempts)
        }

        @Test(arguments: [408, 429, 500, 502, 503, 504])
        func transientStatusIsRetriedForAGET(status: Int) async throws {
            let key = FaultServer.newKey("flaky-\(status)")
            let value = try await client().send(
                NetworkRequest<Flaky>(path: "/flaky/1/\(status)", query: Faults.query(key)))
            #expect(value.attempt == 2)
            #expect(try await FaultServer.hits(key).count == 2)
        }

        @Test(arguments: [400, 401, 404, 422, 501, 505])
        func permanentStatusIsSentOnce(status: Int) async throws {
            let key = FaultServer.newKey("flaky-permanent")
            let error = try await expectNetworkError {
                try await client().send(NetworkRequest<Flaky>(path: "/flaky/1/\(status)", query: Faults.query(key)))
            }
            #expect(error?.kind == .unacceptableStatus(status))
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test(arguments: [HTTPMethod.post, .patch], [408, 429, 503])
        func nonIdempotentRequestIsNeverSentTwice(method: HTTPMethod, status: Int) async throws {
            // F17: unlike OkHttp, a 408 does not make a POST retryable without an idempotency key.
            let key = FaultServer.newKey("flaky-post")
            let error = try await expectNetworkError {
                try await client().send(
                    NetworkRequest<Flaky>(
                        method, path: "/flaky/1/\(status)", query: Faults.query(key, ["retry_after": "0"]),
                        body: .json(["n": 1])))
            }
            #expect(error?.kind == .unacceptableStatus(status))
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test(arguments: [HTTPMethod.put, .delete])
        func idempotentMethodWithABodyIsRetried(method: HTTPMethod) async throws {
            let key = FaultServer.newKey("flaky-put")
            let value = try await client().send(
                NetworkRequest<Flaky>(method, path: "/flaky/1/503", query: Faults.query(key), body: .json(["n": 1])))
            #expect(value.attempt == 2)
            let hits = try await FaultServer.hits(key)
            #expect(hits.count == 2)
            #expect(hits.requests.map(\.body) == [#"{"n":1}"#, #"{"n":1}"#])
        }

        @Test func postWithAnIdempotencyKeyIsRetriedWithTheSameKeyAndBody() async throws {
            let key = FaultServer.newKey("flaky-idem")
            let value = try await client().send(
                NetworkRequest<Flaky>(.post, path: "/flaky/1/503", query: Faults.query(key), body: .json(["n": 1])),
                behavior: .idempotencyKey())
            #expect(value.attempt == 2)
            let hits = try await FaultServer.hits(key)
            #expect(hits.count == 2)
            let keys = hits.requests.map { $0.headers["idempotency-key"] ?? "" }
            #expect(!keys[0].isEmpty && keys[0] == keys[1])
            #expect(hits.requests.map(\.body) == [#"{"n":1}"#, #"{"n":1}"#])
        }

        @Test func retryAfterInSecondsIsWaitedFor() async throws {
            let key = FaultServer.newKey("retry-after-seconds")
            let clock = TestClock()
            let value = try await client(clock: clock).send(
                NetworkRequest<Flaky>(path: "/flaky/1/429", query: Faults.query(key, ["retry_after": "2"])))
            #expect(value.attempt == 2)
            #expect(clock.sleeps == [.seconds(2)])
            #expect(try await FaultServer.hits(key).count == 2)
        }

        @Test func retryAfterAsAnHTTPDateIsWaitedFor() async throws {
            // The test clock's date is 2023-11-14 22:13:20 GMT; the server asks to wait until 3 s later.
            let key = FaultServer.newKey("retry-after-date")
            let clock = TestClock()
            let value = try await client(clock: clock).send(
                NetworkRequest<Flaky>(
                    path: "/flaky/1/503", query: Faults.query(key, ["retry_after": "Tue, 14 Nov 2023 22:13:23 GMT"])))
            #expect(value.attempt == 2)
            #expect(clock.sleeps == [.seconds(3)])
            #expect(try await FaultServer.hits(key).count == 2)
        }

        /// Hostile `Retry-After` values and the longest wait each may cause.
        static let hostileRetryAfter: [(String, Duration)] = [
            ("-5", .zero),  // negative: at once
            ("Tue, 14 Nov 2023 22:12:20 GMT", RetrySettings.defaultBaseDelay),  // in the past: at once or back-off
            ("soon", RetrySettings.defaultBaseDelay),  // garbage: ordinary back-off
            ("1e3", RetrySettings.defaultBaseDelay),
            ("Tue, 99 Nov 2023 25:61:00 GMT", RetrySettings.defaultBaseDelay),
            ("", RetrySettings.defaultBaseDelay),
        ]

        @Test(arguments: hostileRetryAfter)
        func hostileRetryAfterNeverCrashesAndStaysBounded(value: String, longest: Duration) async throws {
            let key = FaultServer.newKey("retry-after-hostile")
            let clock = TestClock()
            let answer = try await client(clock: clock).send(
                NetworkRequest<Flaky>(path: "/flaky/1/503", query: Faults.query(key, ["retry_after": value])))
            #expect(answer.attempt == 2)
            #expect(clock.sleeps.count == 1)
            #expect(clock.sleeps.allSatisfy { $0 >= .zero && $0 <= longest }, "slept \(clock.sleeps)")
            #expect(try await FaultServer.hits(key).count == 2)
        }

        @Test(arguments: ["86400", "999999999"])
        func retryAfterLongerThanThePolicyWaitsEndsTheCallAtOnceAfterOneHit(value: String) async throws {
            // Under the default policy and no deadline, a server asking for a day gets its 503 back at once: the
            // call neither waits nor asks again.
            let key = FaultServer.newKey("retry-after-absurd")
            let clock = TestClock()
            let started = ContinuousClock.now
            let error = try await expectNetworkError {
                try await client(clock: clock).send(
                    NetworkRequest<Flaky>(path: "/flaky/1/503", query: Faults.query(key, ["retry_after": value])))
            }
            #expect(error?.kind == .unacceptableStatus(503))
            #expect(error?.response?.headerFields["Retry-After"] == value)
            #expect(clock.sleeps.isEmpty)
            #expect(ContinuousClock.now - started < .seconds(5))
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func retryAfterBeyondTheTimeBudgetIsNotWaitedFor() async throws {
            var policy = RetrySettings.default
            policy.timeBudget = .seconds(10)
            let key = FaultServer.newKey("retry-after-budget")
            let clock = TestClock()
            let error = try await expectNetworkError {
                try await client(policy, clock: clock).send(
                    NetworkRequest<Flaky>(path: "/flaky/1/503", query: Faults.query(key, ["retry_after": "30"])))
            }
            #expect(error?.kind == .unacceptableStatus(503))
            #expect(clock.sleeps.isEmpty)
            #expect(try await FaultServer.hits(key).count == 1)
        }
    }
}
