import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `CircuitBreakerBehavior` alone, with fake `next` closures and a virtual clock: no client, no network.
@Suite struct CircuitBreakerBehaviorTests {
    typealias Phase = CircuitBreakerState.Phase

    static let request = BehaviorFakes.request
    static let hostKey = "api.example.test:443"

    static func settings(minimum: Int = 4, breakFor: Double = 5, probes: Int = 1) -> CircuitBreakerSettings {
        (try? CircuitBreakerSettings(
            failureRatio: 0.5, minimumThroughput: minimum, breakDuration: .seconds(breakFor), halfOpenProbes: probes))
            ?? .default
    }

    /// A `next` that counts its calls and answers with `status` (a `NetworkError` unless it is 2xx).
    final class Server: Sendable {
        let calls = LockedBox(0)
        let status = LockedBox(200)
        let headers = LockedBox<HTTPFields>([:])

        var next: NextHandler {
            { request in
                self.calls.withLock { $0 += 1 }
                let status = self.status.current
                guard status >= 300 else { return BehaviorFakes.response(to: request, status: status) }
                throw NetworkError(
                    .unacceptableStatus(status), requestName: "GET /items", message: "status \(status)",
                    response: BehaviorFakes.response(to: request, status: status, headers: self.headers.current).0)
            }
        }
    }

    private func send(_ breaker: CircuitBreakerBehavior, _ server: Server, url: String? = nil) async -> Result<
        Int, any Error
    > {
        let request = url.map { HTTPRequest(url: URL(string: $0)!) } ?? Self.request
        do {
            let (response, _) = try await breaker.intercept(
                request, context: RequestContext(requestName: "GET /items"), next: server.next)
            return .success(response.status.code)
        } catch {
            return .failure(error)
        }
    }

    @Test func opensAfterFailuresThenFailsFastWithoutCallingNext() async throws {
        let clock = TestClock()
        let store = InMemoryCircuitBreakerStore()
        let breaker = CircuitBreakerBehavior(settings: Self.settings(), store: store, clock: clock)
        let server = Server()
        server.status.withLock { $0 = 503 }
        for _ in 0..<4 { _ = await send(breaker, server) }
        #expect(server.calls.current == 4)
        #expect(store.state(for: Self.hostKey)?.phase == .open)
        clock.advance(by: .seconds(1))
        let rejected = await send(breaker, server)
        #expect(server.calls.current == 4)
        guard case .failure(let error as CircuitOpenError) = rejected else {
            Issue.record("expected CircuitOpenError, got \(rejected)")
            return
        }
        #expect(error == CircuitOpenError(key: Self.hostKey, phase: .open, retryAfter: .seconds(4)))
        #expect("\(error)" == "the circuit for api.example.test:443 is open; a probe may go in 4.0 s")
    }

    @Test func inAChainTheRejectionIsABehaviorErrorAndNothingIsSent() async throws {
        let breaker = CircuitBreakerBehavior(settings: Self.settings(minimum: 1), clock: TestClock())
        let server = Server()
        server.status.withLock { $0 = 500 }
        _ = await send(breaker, server)
        let (error, sends) = try await BehaviorFakes.failureInChain(breaker)
        #expect(sends == 0)
        #expect(error?.kind == .behavior("CircuitBreakerBehavior"))
        #expect((error?.underlyingError as? CircuitOpenError)?.phase == .open)
    }

    @Test func afterTheBreakOneProbeGoesAndItsSuccessClosesTheCircuit() async throws {
        let clock = TestClock()
        let changes = LockedBox<[String]>([])
        let breaker = CircuitBreakerBehavior(
            settings: Self.settings(minimum: 2), clock: clock,
            onStateChange: { change in
                changes.withLock { $0.append("\(change.key) \(change.from)→\(change.to) by \(change.requestName)") }
            })
        let server = Server()
        server.status.withLock { $0 = 502 }
        _ = await send(breaker, server)
        _ = await send(breaker, server)
        clock.advance(by: .seconds(5))
        server.status.withLock { $0 = 200 }
        #expect(try await send(breaker, server).get() == 200)
        #expect(try await send(breaker, server).get() == 200)
        #expect(server.calls.current == 4)
        let key = Self.hostKey
        #expect(
            changes.current == [
                "\(key) closed→open by GET /items", "\(key) open→halfOpen by GET /items",
                "\(key) halfOpen→closed by GET /items",
            ])
    }

    @Test func callsBeyondTheProbesFailFastWhileHalfOpen() async throws {
        let clock = TestClock()
        let breaker = CircuitBreakerBehavior(settings: Self.settings(minimum: 1), clock: clock)
        let failing = Server()
        failing.status.withLock { $0 = 503 }
        _ = await send(breaker, failing)
        clock.advance(by: .seconds(5))
        let gate = LockedBox(false)
        let probe = Task {
            try await breaker.intercept(Self.request, context: RequestContext()) { request in
                try await BehaviorFakes.waitUntil { gate.current }
                return BehaviorFakes.response(to: request)
            }
        }
        try await BehaviorFakes.waitUntil { failing.calls.current == 1 && probeIsOut(breaker) }
        let second = await send(breaker, Server())
        guard case .failure(let error as CircuitOpenError) = second else {
            Issue.record("expected CircuitOpenError, got \(second)")
            return
        }
        #expect(error.phase == .halfOpen && error.retryAfter == nil)
        gate.withLock { $0 = true }
        _ = try await probe.value
        #expect(try await send(breaker, Server()).get() == 200)
    }

    private func probeIsOut(_ breaker: CircuitBreakerBehavior) -> Bool {
        (breaker.store as? InMemoryCircuitBreakerStore)?.state(for: Self.hostKey)?.probesInFlight == 1
    }

    @Test func eachHostHasItsOwnCircuitByDefault() async throws {
        let breaker = CircuitBreakerBehavior(settings: Self.settings(minimum: 1), clock: TestClock())
        let server = Server()
        server.status.withLock { $0 = 503 }
        _ = await send(breaker, server, url: "https://down.example.test/a")
        server.status.withLock { $0 = 200 }
        #expect(try await send(breaker, server, url: "https://up.example.test/a").get() == 200)
        await #expect(throws: CircuitOpenError.self) {
            try (await send(breaker, server, url: "https://down.example.test/b")).get()
        }
        #expect(server.calls.current == 2)
    }

    @Test func cancellationIsRethrownUntouchedAndNeverCounted() async throws {
        let store = InMemoryCircuitBreakerStore()
        let breaker = CircuitBreakerBehavior(settings: Self.settings(minimum: 1), store: store, clock: TestClock())
        for _ in 0..<20 {
            await #expect(throws: CancellationError.self) {
                try await breaker.intercept(Self.request, context: RequestContext()) { _ in throw CancellationError() }
            }
        }
        let state = store.state(for: Self.hostKey)
        #expect(state?.phase == .closed)
        #expect(state?.counts.ignored == 20 && state?.counts.failures == 0)
    }

    @Test func clientErrorsAndOtherBehaviorsErrorsNeverOpenTheCircuit() async throws {
        let store = InMemoryCircuitBreakerStore()
        let breaker = CircuitBreakerBehavior(settings: Self.settings(minimum: 1), store: store, clock: TestClock())
        let server = Server()
        for status in [400, 401, 403, 404, 409, 422] {
            server.status.withLock { $0 = status }
            _ = await send(breaker, server)
        }
        let other = NetworkError(.behavior("AuthorizationBehavior"), requestName: "GET /items", message: "no token")
        _ = try? await breaker.intercept(Self.request, context: RequestContext()) { _ in throw other }
        let state = store.state(for: Self.hostKey)
        #expect(state?.phase == .closed)
        #expect(state?.counts.successes == 6 && state?.counts.ignored == 1 && state?.counts.failures == 0)
    }

    /// What Plugins.md says counts as a failure, a success or neither, read through the shared classifier.
    @Test(arguments: [
        (NetworkError.Kind.unacceptableStatus(500), "failure"), (.unacceptableStatus(502), "failure"),
        (.unacceptableStatus(503), "failure"), (.unacceptableStatus(504), "failure"),
        (.unacceptableStatus(408), "failure"), (.unacceptableStatus(429), "failure"),
        (.transport(.cannotConnect), "failure"), (.transport(.timedOut), "failure"),
        (.transport(.connectionLost), "failure"), (.timedOut(.attempt), "failure"),
        (.unacceptableStatus(404), "success"), (.unacceptableStatus(422), "success"),
        (.unacceptableStatus(501), "success"), (.unacceptableStatus(505), "success"),
        (.transport(.secureConnectionFailed), "ignored"), (.transport(.tooManyRedirects), "ignored"),
        (.transport(.responseTooLarge), "ignored"), (.transport(.other), "ignored"),
        (.timedOut(.call), "ignored"), (.decoding, "ignored"), (.invalidRequest, "ignored"),
    ])
    func eachFailureCountsAsThePluginsTableSays(kind: NetworkError.Kind, counted: String) {
        let error = NetworkError(kind, requestName: "GET /x", message: "test")
        let outcome = CircuitBreakerBehavior.outcome(of: error, now: Date(timeIntervalSince1970: 0))
        let name =
            switch outcome {
            case .failure: "failure"
            case .success: "success"
            case .ignored: "ignored"
            }
        #expect(name == counted)
    }

    @Test func retryAfterOnA503LengthensTheBreakUpToTheCap() async throws {
        let clock = TestClock()
        let settings = try CircuitBreakerSettings(
            minimumThroughput: 1, breakDuration: .seconds(5), maximumBreakDuration: .seconds(30))
        let breaker = CircuitBreakerBehavior(settings: settings, clock: clock)
        let server = Server()
        server.status.withLock { $0 = 503 }
        server.headers.withLock { $0 = ["Retry-After": "120"] }
        _ = await send(breaker, server)
        clock.advance(by: .seconds(29))
        await #expect(throws: CircuitOpenError.self) { try (await send(breaker, server)).get() }
        clock.advance(by: .seconds(1))
        server.status.withLock { $0 = 200 }
        #expect(try await send(breaker, server).get() == 200)
        #expect(server.calls.current == 2)
    }
}
