import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `RetryBehavior` alone: `intercept` with a scripted `next` and a `TestClock`. No client, no network.
@Suite struct RetryBehaviorTests {
    /// A fake `next` that answers attempt n with `steps[n - 1]` (the last step repeats) and records each request.
    final class Script: Sendable {
        enum Step: Sendable {
            case ok
            case status(Int, headers: [String: String] = [:])
            case fail(any Error & Sendable)
        }

        let steps: [Step]
        private let seen = LockedBox<[HTTPRequest]>([])

        init(_ steps: [Step]) { self.steps = steps }

        var calls: Int { seen.withLock { $0.count } }
        var requests: [HTTPRequest] { seen.current }

        /// Answers like the client's attempt handler: an unacceptable status is a `NetworkError` with the response
        /// and a body naming the attempt, so tests can tell which attempt's error came back.
        var next: NextHandler {
            { request in
                let attempt = self.seen.withLock {
                    $0.append(request)
                    return $0.count
                }
                switch self.steps[min(attempt, self.steps.count) - 1] {
                case .ok:
                    return (HTTPResponse(status: 200), .data(Data("attempt \(attempt)".utf8)))
                case .status(let status, let headers):
                    throw NetworkError(
                        .unacceptableStatus(status), requestName: "test", message: "status \(status)",
                        sentRequest: request,
                        response: HTTPResponse(status: .init(code: status), headerFields: HTTPFields(headers)),
                        body: Data("attempt \(attempt)".utf8))
                case .fail(let error):
                    throw error
                }
            }
        }
    }

    static let context = RequestContext(requestName: "GET /x")

    static func request(_ method: HTTPMethod = .get, headers: [String: String] = [:]) -> HTTPRequest {
        var request = HTTPRequest(url: URL(string: "https://api.example.test/x")!)
        request.method = HTTPMethod(rawValue: method.rawValue)
        for (name, value) in headers { request.headerFields[HTTPField.Name(name)] = value }
        return request
    }

    static func transportError(_ code: TransportError.Code) -> NetworkError {
        NetworkError(
            .transport(code), requestName: "test", message: "\(code)", underlyingError: TransportError(code, "test"))
    }

    /// Runs one call through a retry behavior with fixed jitter 0.5 on `clock`.
    static func run(
        _ script: Script, request: HTTPRequest = request(), policy: RetrySettings = .default,
        clock: TestClock = TestClock(), onRetry: (@Sendable (RetryBehavior.Event) -> Void)? = nil
    ) async throws -> (HTTPResponse, HTTPResponse.Body) {
        let behavior = RetryBehavior(settings: policy, clock: clock, random: { 0.5 }, onRetry: onRetry)
        return try await behavior.intercept(request, context: context, next: script.next)
    }

    @Test func getSucceedsAfterTwo503sWithTwoBackoffWaits() async throws {
        let script = Script([.status(503), .status(503), .ok])
        let clock = TestClock()
        let (response, body) = try await Self.run(script, clock: clock)
        #expect(response.status.code == 200)
        #expect(String(decoding: body.data ?? Data(), as: UTF8.self) == "attempt 3")
        #expect(script.calls == 3)
        #expect(clock.sleeps == [.milliseconds(250), .milliseconds(500)])
    }

    @Test func whenAttemptsRunOutTheLastErrorIsRethrownUnchanged() async throws {
        let script = Script([.status(500)])
        let clock = TestClock()
        let error = try await expectNetworkError { try await Self.run(script, clock: clock) }
        #expect(error?.kind == .unacceptableStatus(500))
        #expect(error?.body == Data("attempt 3".utf8))
        #expect(script.calls == 3)
        #expect(clock.sleeps.count == 2)
    }

    @Test func notFoundIsNotRetried() async throws {
        let script = Script([.status(404), .ok])
        let clock = TestClock()
        let error = try await expectNetworkError { try await Self.run(script, clock: clock) }
        #expect(error?.statusCode == 404)
        #expect(script.calls == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test func post503IsNotRetried() async throws {
        let script = Script([.status(503), .ok])
        let error = try await expectNetworkError { try await Self.run(script, request: Self.request(.post)) }
        #expect(error?.statusCode == 503)
        #expect(script.calls == 1)
    }

    @Test func postWithAnIdempotencyKeyIsRetried() async throws {
        let script = Script([.status(503), .ok])
        let request = Self.request(.post, headers: ["Idempotency-Key": "order-42"])
        let (response, _) = try await Self.run(script, request: request)
        #expect(response.status.code == 200)
        #expect(script.calls == 2)
        #expect(script.requests.allSatisfy { $0.headerFields["Idempotency-Key"] == "order-42" })
    }

    @Test func postIsRetriedWhenTheConnectionWasRefused() async throws {
        let script = Script([.fail(Self.transportError(.cannotConnect)), .ok])
        let (response, _) = try await Self.run(script, request: Self.request(.post))
        #expect(response.status.code == 200)
        #expect(script.calls == 2)
    }

    @Test func tlsFailuresAreNeverRetried() async throws {
        let script = Script([.fail(Self.transportError(.secureConnectionFailed)), .ok])
        let error = try await expectNetworkError { try await Self.run(script) }
        #expect(error?.kind == .transport(.secureConnectionFailed))
        #expect(script.calls == 1)
    }

    @Test(arguments: [
        ("7", Duration.seconds(7)),  // seconds
        ("Tue, 14 Nov 2023 22:13:30 GMT", .seconds(10)),  // 10 s after the TestClock's start date
        ("not a number", .milliseconds(250)),  // garbage: back-off
        ("-3", .zero),  // negative: at once
    ])
    func retryAfterSetsTheWait(header: String, wait: Duration) async throws {
        let script = Script([.status(503, headers: ["Retry-After": header]), .ok])
        let clock = TestClock()
        _ = try await Self.run(script, clock: clock)
        #expect(clock.sleeps == [wait])
        #expect(script.calls == 2)
    }

    @Test func retryAfterLongerThanTheMaximumEndsTheCallAtOnceWithTheServersAnswer() async throws {
        let script = Script([.status(503, headers: ["Retry-After": "86400"]), .ok])
        let clock = TestClock()
        let error = try await expectNetworkError { try await Self.run(script, clock: clock) }
        #expect(error?.kind == .unacceptableStatus(503))
        #expect(error?.body == Data("attempt 1".utf8))
        #expect(clock.sleeps.isEmpty)
        #expect(script.calls == 1)
    }

    @Test func retryAfterDatesAreReadOnTheInjectedClock() async throws {
        // The second 503 names the same date, which the clock has reached by then: no second wait.
        let date = "Tue, 14 Nov 2023 22:13:30 GMT"
        let script = Script([
            .status(503, headers: ["Retry-After": date]), .status(429, headers: ["Retry-After": date]), .ok,
        ])
        let clock = TestClock()
        _ = try await Self.run(script, clock: clock)
        #expect(clock.sleeps == [.seconds(10), .zero])
    }

    @Test func theTimeBudgetStopsRetries() async throws {
        let script = Script([.status(503, headers: ["Retry-After": "3"])])
        let clock = TestClock()
        var policy = RetrySettings.default
        policy.timeBudget = .seconds(5)
        let error = try await expectNetworkError { try await Self.run(script, policy: policy, clock: clock) }
        #expect(error?.body == Data("attempt 2".utf8))
        #expect(script.calls == 2)
        #expect(clock.sleeps == [.seconds(3)])
    }

    @Test func theWaitReallyWaitsForTheClock() async throws {
        let script = Script([.status(503), .ok])
        let clock = TestClock(mode: .manual)
        let call = Task { try await Self.run(script, clock: clock) }
        await clock.waitForSleepers(1)
        #expect(script.calls == 1)
        clock.advance(by: .milliseconds(250))
        let (response, _) = try await call.value
        #expect(response.status.code == 200)
        #expect(script.calls == 2)
    }

    @Test func cancellationDuringTheWaitStopsAtOnce() async throws {
        let script = Script([.status(503), .ok])
        let clock = TestClock(mode: .manual)
        let call = Task { try await Self.run(script, clock: clock) }
        await clock.waitForSleepers(1)
        call.cancel()
        let result = await call.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(script.calls == 1)
        #expect(clock.pendingSleepCount == 0)
    }

    @Test func cancellationErrorFromNextIsNeverRetried() async throws {
        let script = Script([.fail(CancellationError()), .ok])
        let clock = TestClock()
        await #expect(throws: CancellationError.self) { try await Self.run(script, clock: clock) }
        #expect(script.calls == 1)
        #expect(clock.sleeps.isEmpty)
    }

    /// Cancelled when a retry was due, the call ends with `CancellationError`, as a cancelled wait does; a failure
    /// no retry would follow is the call's answer, cancelled or not.
    @Test(arguments: [(503, true), (404, false)])
    func aCancelledTaskIsNotRetried(status: Int, endsAsCancelled: Bool) async throws {
        let script = Script([.status(status), .ok])
        let clock = TestClock()
        let call = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Self.run(script, clock: clock)
        }
        let result = await call.result
        if endsAsCancelled {
            #expect(throws: CancellationError.self) { try result.get() }
        } else {
            #expect(throws: NetworkError.self) { try result.get() }
        }
        #expect(script.calls == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test func everyAttemptSendsTheSameRequest() async throws {
        let script = Script([.fail(Self.transportError(.connectionLost)), .status(502), .ok])
        let request = Self.request(.put, headers: ["X-Trace": "t1"])
        _ = try await Self.run(script, request: request)
        #expect(script.requests == [request, request, request])
    }

    @Test func onRetryReportsEachRetryBeforeItsWait() async throws {
        let events = LockedBox<[RetryBehavior.Event]>([])
        let script = Script([.status(503), .fail(Self.transportError(.cannotConnect)), .ok])
        _ = try await Self.run(script, onRetry: { event in events.withLock { $0.append(event) } })
        #expect(
            events.current == [
                RetryBehavior.Event(
                    requestName: "GET /x", attempt: 2, maximumAttempts: 3, delay: .milliseconds(250),
                    reason: "unacceptableStatus(503)"),
                RetryBehavior.Event(
                    requestName: "GET /x", attempt: 3, maximumAttempts: 3, delay: .milliseconds(500),
                    reason: "transport(cannotConnect)"),
            ])
        #expect(
            events.current.first?.description == "retrying GET /x after unacceptableStatus(503) in 0.25 s (attempt 2/3)"
        )
    }

    @Test func theStaticFactoryBuildsTheBehavior() {
        var policy = RetrySettings.default
        policy.maximumAttempts = 5
        let behavior: RetryBehavior = .retry(policy, clock: TestClock(), random: { 0.5 })
        #expect(behavior.settings.maximumAttempts == 5)
        #expect(behavior.random() == 0.5)
        #expect(behavior.onRetry == nil)
        #expect(RetryBehavior().settings == .default)
    }
}
