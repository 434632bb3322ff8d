import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `RetryBehavior` in a real chain: attempts counted at a `MockTransport`, back-off on an automatic `TestClock`
/// (the behavior's clock; the client keeps the system clock for its time limits).
@Suite struct RetryBehaviorClientTests {
    /// A transport answering attempt n with `statuses[n - 1]` (the last one repeats); the body names the attempt.
    static func transport(_ statuses: [Int], headers: [String: String] = [:]) -> MockTransport {
        let count = LockedBox(0)
        return MockTransport { request in
            let attempt = count.withLock {
                $0 += 1
                return $0
            }
            let status = statuses[min(attempt, statuses.count) - 1]
            return (
                HTTPResponse(status: .init(code: status), headerFields: HTTPFields(headers)),
                Data("attempt \(attempt)".utf8)
            )
        }
    }

    @Test func getSucceedsAfterTwo503sWithExactlyThreeTransportCalls() async throws {
        let transport = Self.transport([503, 503, 200])
        let clock = TestClock()
        let client = try makeClient(transport: transport, behavior: .retry(clock: clock, random: { 0.5 }))
        let body = try await client.send(NetworkRequest<String>(path: "/users"))
        #expect(body == "attempt 3")
        #expect(transport.requestCount == 3)
        #expect(clock.sleeps == [.milliseconds(250), .milliseconds(500)])
    }

    @Test func threeFailuresRethrowTheLastAttemptsError() async throws {
        let transport = Self.transport([500])
        let client = try makeClient(transport: transport, behavior: .retry(clock: TestClock(), random: { 0.5 }))
        let error = try await expectNetworkError { try await client.send(NetworkRequest<Void>(path: "/users")) }
        #expect(error?.kind == .unacceptableStatus(500))
        #expect(error?.bodySnippet() == "attempt 3")
        #expect(transport.requestCount == 3)
    }

    @Test func postIsSentOnceOn503ButAgainWithAnIdempotencyKey() async throws {
        let plain = Self.transport([503, 201])
        let client = try makeClient(transport: plain, behavior: .retry(clock: TestClock()))
        let error = try await expectNetworkError { try await client.send(NetworkRequest<Void>(.post, path: "/orders")) }
        #expect(error?.statusCode == 503)
        #expect(plain.requestCount == 1)

        let keyed = Self.transport([503, 201])
        try await makeClient(transport: keyed, behavior: .retry(clock: TestClock())).send(
            NetworkRequest<Void>(.post, path: "/orders", headers: ["Idempotency-Key": "k-1"]))
        #expect(keyed.requestCount == 2)
    }

    @Test func postIsRetriedWhenTheTransportCouldNotConnect() async throws {
        let count = LockedBox(0)
        let transport = MockTransport { request in
            let attempt = count.withLock {
                $0 += 1
                return $0
            }
            if attempt == 1 { throw URLError(.cannotConnectToHost) }
            return (HTTPResponse(status: 201), Data())
        }
        let clock = TestClock()
        try await makeClient(transport: transport, behavior: .retry(clock: clock)).send(
            NetworkRequest<Void>(.post, path: "/orders"))
        #expect(transport.requestCount == 2)
        #expect(clock.sleeps.count == 1)
    }

    @Test func retryAfterFromTheServerSetsTheWait() async throws {
        let transport = Self.transport([429, 200], headers: ["Retry-After": "2"])
        let clock = TestClock()
        try await makeClient(transport: transport, behavior: .retry(clock: clock)).send(
            NetworkRequest<Void>(path: "/x"))
        #expect(clock.sleeps == [.seconds(2)])
        #expect(transport.requestCount == 2)
    }

    @Test func behaviorsInsideTheRetryRunOncePerAttemptAndOutsideOncePerCall() async throws {
        let log = HookTrace()
        let transport = Self.transport([503, 200])
        // Given in the "wrong" order: the chain orders by placement, so the observer runs outside the retry and
        // the header-setting behavior inside it, whatever the array says.
        let behavior = CombinedBehavior([
            HookTraceBehavior("inner", log: log, additionalHeaders: ["Authorization": "Bearer t"]),
            .retry(clock: TestClock()),
            HookTraceBehavior("outer", log: log, placement: .observation),
        ])
        try await makeClient(transport: transport, behavior: behavior).send(NetworkRequest<Void>(path: "/x"))
        #expect(
            log.events == [
                "outer.modify", "outer.beforeSend",
                "inner.modify", "inner.beforeSend", "inner.afterFailure(unacceptableStatus(503))",
                "inner.modify", "inner.beforeSend", "inner.afterSuccess(200)",
                "outer.afterSuccess(200)",
            ])
        #expect(transport.requests.map { $0.headerFields["Authorization"] } == ["Bearer t", "Bearer t"])
    }
}
