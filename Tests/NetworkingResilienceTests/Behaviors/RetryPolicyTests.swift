import Foundation
import Networking
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The retry decision as a pure function: tables of method × failure × attempt → decision, and exact delays.
@Suite struct RetryPolicyTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)
    static let idempotent: Set<HTTPMethod> = ["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"]
    static let methods: [HTTPMethod] = [.get, .head, .options, .put, .delete, .trace, .post, .patch, "PROPFIND"]

    /// The decision with a fixed jitter of 0.5, so back-off delays are exact: 0.25 s after the first attempt.
    static func decide(
        _ outcome: RetrySettings.Outcome, method: HTTPMethod = .get, policy: RetrySettings = .default,
        headers: HTTPFields = [:], replayable: Bool = true, attempt: Int = 1, elapsed: Duration = .zero,
        random: Double = 0.5
    ) -> RetrySettings.Decision {
        policy.decision(
            method: method, requestHeaders: headers, bodyIsReplayable: replayable, outcome: outcome, attempt: attempt,
            elapsed: elapsed, now: now, random: { random })
    }

    static func transport(_ code: TransportError.Code) -> NetworkError {
        NetworkError(
            .transport(code), requestName: "test", message: "\(code)", underlyingError: TransportError(code, "test"))
    }

    static func failure(_ kind: NetworkError.Kind) -> NetworkError {
        NetworkError(kind, requestName: "test", message: "\(kind)")
    }

    @Test func defaultsArePinned() {
        let policy = RetrySettings.default
        #expect(policy == RetrySettings())
        #expect(policy.maximumAttempts == 3)
        #expect(policy.retryableMethods == Self.idempotent)
        #expect(policy.idempotencyKeyHeader == "Idempotency-Key")
        #expect(policy.retryableStatusCodes == [408, 429, 500, 502, 503, 504])
        #expect(
            policy.retryableTransportErrors == [
                .cannotConnect, .cannotFindHost, .notConnected, .timedOut, .connectionLost, .badServerResponse,
            ])
        #expect(policy.baseDelay == .milliseconds(500))
        #expect(policy.delayMultiplier == 2)
        #expect(policy.maximumDelay == .seconds(30))
        #expect(policy.maximumRetryAfter == .seconds(60))
        #expect(policy.timeBudget == .seconds(120))
    }

    @Test(arguments: methods, [408, 429, 500, 502, 503, 504, 400, 401, 403, 404, 409, 422, 501, 505])
    func statusesAreRetriedOnlyWhenRetryableAndForIdempotentMethods(method: HTTPMethod, status: Int) {
        let retryable = Self.idempotent.contains(method) && [408, 429, 500, 502, 503, 504].contains(status)
        let decision = Self.decide(.status(status), method: method)
        if retryable {
            #expect(decision == .retry(after: .milliseconds(250)))
        } else {
            #expect(!decision.retries, "\(decision)")
        }
    }

    struct ErrorRow: Sendable, CustomTestStringConvertible {
        let method: HTTPMethod
        let error: any Error & Sendable
        let retried: Bool
        var testDescription: String {
            let label =
                switch error {
                case let error as NetworkError: "\(error.kind)"
                case let error as TransportError: "TransportError(\(error.code))"
                default: "\(type(of: error))"
                }
            return "\(method) \(label) → \(retried ? "retry" : "no")"
        }
    }

    static let errorRows: [ErrorRow] = [
        // Nothing was sent: any method.
        ErrorRow(method: .get, error: transport(.cannotConnect), retried: true),
        ErrorRow(method: .post, error: transport(.cannotConnect), retried: true),
        ErrorRow(method: .patch, error: transport(.cannotFindHost), retried: true),
        ErrorRow(method: .post, error: transport(.notConnected), retried: true),
        ErrorRow(method: .post, error: TransportError(.cannotConnect, "raw"), retried: true),
        // The server may have seen it: idempotent methods only.
        ErrorRow(method: .get, error: transport(.timedOut), retried: true),
        ErrorRow(method: .post, error: transport(.timedOut), retried: false),
        ErrorRow(method: .put, error: transport(.connectionLost), retried: true),
        ErrorRow(method: .post, error: transport(.connectionLost), retried: false),
        ErrorRow(method: .delete, error: transport(.badServerResponse), retried: true),
        ErrorRow(method: .patch, error: transport(.badServerResponse), retried: false),
        ErrorRow(method: .get, error: failure(.timedOut(.attempt)), retried: true),
        ErrorRow(method: .post, error: failure(.timedOut(.attempt)), retried: false),
        // Never.
        ErrorRow(method: .get, error: transport(.tooManyRedirects), retried: false),
        ErrorRow(method: .get, error: transport(.redirectRefused), retried: false),
        ErrorRow(method: .get, error: transport(.responseTooLarge), retried: false),
        ErrorRow(method: .get, error: transport(.secureConnectionFailed), retried: false),
        ErrorRow(method: .post, error: transport(.secureConnectionFailed), retried: false),
        ErrorRow(method: .get, error: transport(.other), retried: false),
        ErrorRow(method: .get, error: failure(.timedOut(.call)), retried: false),
        ErrorRow(method: .get, error: failure(.invalidRequest), retried: false),
        ErrorRow(method: .put, error: failure(.encoding), retried: false),
        ErrorRow(method: .get, error: failure(.decoding), retried: false),
        ErrorRow(method: .get, error: failure(.behavior("Auth")), retried: false),
        ErrorRow(method: .get, error: CancellationError(), retried: false),
        ErrorRow(method: .get, error: URLError(.cannotConnectToHost), retried: false),
    ]

    @Test(arguments: errorRows)
    func errorsAreRetriedByCodeAndMethod(row: ErrorRow) {
        let decision = Self.decide(.failure(row.error), method: row.method)
        if row.retried {
            #expect(decision == .retry(after: .milliseconds(250)))
        } else {
            #expect(!decision.retries, "\(decision)")
        }
    }

    @Test(arguments: [(1, true), (2, true), (3, false), (4, false)])
    func threeAttemptsInAll(attempt: Int, retried: Bool) {
        let decision = Self.decide(.status(503), attempt: attempt)
        #expect(decision.retries == retried, "\(decision)")
    }

    @Test func oneAttemptTurnsRetryingOff() {
        let policy = RetrySettings(maximumAttempts: 1)
        #expect(Self.decide(.status(503), policy: policy) == .doNotRetry(reason: "no attempts left (1 of 1 made)"))
    }

    @Test(arguments: zip(1...9, [0.25, 0.5, 1, 2, 4, 8, 15, 15, 15]))
    func backoffDoublesUpToTheCapWithFullJitter(attempt: Int, seconds: Double) {
        let policy = RetrySettings(maximumAttempts: 20)
        #expect(Self.decide(.status(503), policy: policy, attempt: attempt) == .retry(after: .seconds(seconds)))
        #expect(policy.backoffBound(afterAttempt: attempt) == .seconds(min(30, 0.5 * pow(2, Double(attempt - 1)))))
    }

    @Test func jitterSpansZeroToTheBoundAndClampsStrayValues() {
        #expect(Self.decide(.status(503), random: 0) == .retry(after: .zero))
        #expect(Self.decide(.status(503), random: 1.7) == .retry(after: .milliseconds(500)))
        #expect(Self.decide(.status(503), random: -3) == .retry(after: .zero))
        #expect(Self.decide(.status(503), random: .nan) == .retry(after: .zero))
    }

    @Test func realRandomDelaysStayWithinTheirBounds() {
        let policy = RetrySettings(maximumAttempts: 20)
        for attempt in 1...10 {
            let bound = policy.backoffBound(afterAttempt: attempt)
            var delays: Set<Duration> = []
            for _ in 0..<50 {
                let decision = policy.decision(
                    method: .get, outcome: .status(503), attempt: attempt, now: Self.now,
                    random: { Double.random(in: 0..<1) })
                guard case .retry(let delay) = decision else {
                    Issue.record("expected a retry, got \(decision)")
                    return
                }
                #expect(delay >= .zero && delay <= bound)
                delays.insert(delay)
            }
            #expect(delays.count > 1, "jitter should vary the delay")
        }
    }

    @Test func absurdBackoffSettingsNeverTrap() {
        let huge = RetrySettings(maximumAttempts: 5000, delayMultiplier: 1e300)
        #expect(huge.backoffBound(afterAttempt: 4000) == .seconds(30))
        #expect(RetrySettings(delayMultiplier: .nan).backoffBound(afterAttempt: 2) == .zero)
        #expect(RetrySettings(baseDelay: .seconds(-1)).backoffBound(afterAttempt: 1) == .zero)
    }

    @Test func anIdempotencyKeyMakesPostRetryable() {
        #expect(!Self.decide(.status(503), method: .post).retries)
        #expect(
            Self.decide(.status(503), method: .post, headers: ["Idempotency-Key": "k1"])
                == .retry(after: .milliseconds(250)))
        #expect(
            Self.decide(.failure(Self.transport(.connectionLost)), method: .patch, headers: ["idempotency-key": "k1"])
                == .retry(after: .milliseconds(250)))
    }

    @Test func anEmptyOrDisabledIdempotencyKeyDoesNotCount() {
        #expect(!Self.decide(.status(503), method: .post, headers: ["Idempotency-Key": " "]).retries)
        let off = RetrySettings(idempotencyKeyHeader: nil)
        #expect(!Self.decide(.status(503), method: .post, policy: off, headers: ["Idempotency-Key": "k"]).retries)
        let custom = RetrySettings(idempotencyKeyHeader: "X-Request-Key")
        #expect(!Self.decide(.status(503), method: .post, policy: custom, headers: ["Idempotency-Key": "k"]).retries)
        #expect(
            Self.decide(.status(503), method: .post, policy: custom, headers: ["X-Request-Key": "k"])
                == .retry(after: .milliseconds(250)))
    }

    @Test func aBodyThatCannotBeReplayedIsNeverRetried() {
        let decision = Self.decide(.failure(Self.transport(.cannotConnect)), method: .put, replayable: false)
        #expect(decision == .doNotRetry(reason: "the body is a stream that cannot be sent again"))
    }

    @Test(arguments: [
        ("7", 7.0),  // seconds, exactly, whatever the jitter
        ("0", 0),
        ("-5", 0),  // negative: no wait
        ("Tue, 14 Nov 2023 22:13:30 GMT", 10),  // 10 s after `now`
        ("Tue, 14 Nov 2023 21:13:20 GMT", 0),  // in the past: no wait
        ("60", 60),  // exactly maximumRetryAfter: waited for
        ("soon", 0.25),  // garbage: back-off
        ("", 0.25),
    ])
    func retryAfterReplacesBackoff(header: String, seconds: Double) {
        #expect(Self.decide(.status(429, retryAfter: header)) == .retry(after: .seconds(seconds)))
    }

    @Test(arguments: [
        ("61", "61.0 s"),
        ("86400", "86400.0 s"),  // a day
        ("999999999", "999999999.0 s"),
        ("Tue, 14 Nov 2023 22:15:20 GMT", "120.0 s"),  // a date two minutes after `now`
    ])
    func retryAfterLongerThanThePolicyAcceptsIsNotRetried(header: String, asked: String) {
        for status in [429, 503] {
            #expect(
                Self.decide(.status(status, retryAfter: header))
                    == .doNotRetry(
                        reason: "the server asked to wait \(asked) (Retry-After), longer than the policy's "
                            + "maximumRetryAfter of 60.0 s"))
        }
    }

    @Test(arguments: ["99999999999999999999999", "Fri, 31 Dec 9999 23:59:59 GMT"])
    func absurdRetryAfterIsNotRetriedAndNeverTraps(header: String) {
        #expect(!Self.decide(.status(503, retryAfter: header)).retries)
    }

    @Test func aLargerMaximumRetryAfterWaitsForLongerAnswers() {
        var policy = RetrySettings.default
        policy.maximumRetryAfter = .seconds(90)
        policy.timeBudget = .seconds(300)
        let decision = policy.decision(
            method: .get, outcome: .status(503, retryAfter: "86"), attempt: 1, now: Self.now, random: { 0.5 })
        #expect(decision == .retry(after: .seconds(86)))
    }

    @Test func retryAfterIsReadFromTheErrorsResponseIgnoringLetterCase() {
        let url = URL(string: "https://api.example.test/x")!
        let response = HTTPResponse(status: 503, headerFields: ["retry-after": "4"], url: url)
        let error = NetworkError(.unacceptableStatus(503), requestName: "GET /x", message: "503", response: response)
        #expect(Self.decide(.failure(error)) == .retry(after: .seconds(4)))
    }

    @Test func retryAfterDoesNotMakeAStatusRetryable() {
        #expect(Self.decide(.status(404, retryAfter: "1")) == .doNotRetry(reason: "status 404 is not retryable"))
        #expect(!Self.decide(.status(503, retryAfter: "1"), method: .post).retries)
    }

    @Test func noRetryWhoseWaitWouldExceedTheTimeBudget() {
        #expect(Self.decide(.status(503), elapsed: .seconds(119)) == .retry(after: .milliseconds(250)))
        #expect(!Self.decide(.status(503), elapsed: .milliseconds(119_800)).retries)
        #expect(Self.decide(.status(503, retryAfter: "20"), elapsed: .seconds(100)) == .retry(after: .seconds(20)))
        let decision = Self.decide(.status(503, retryAfter: "21"), elapsed: .seconds(100))
        #expect(
            decision == .doNotRetry(reason: "waiting 21.0 s after 100.0 s would exceed the time budget of 120.0 s"))
    }

    @Test func attemptTimeoutsFollowTheTimedOutTransportCode() {
        var policy = RetrySettings.default
        policy.retryableTransportErrors.remove(.timedOut)
        #expect(!Self.decide(.failure(Self.failure(.timedOut(.attempt))), policy: policy).retries)
        #expect(Self.decide(.failure(Self.transport(.cannotConnect)), policy: policy).retries)
    }

    @Test func decisionsDescribeThemselves() {
        #expect("\(RetrySettings.Decision.retry(after: .milliseconds(250)))" == "retry after 0.25 s")
        #expect(
            "\(Self.decide(.status(503), method: .post))"
                == "do not retry: POST is not idempotent and has no Idempotency-Key header: "
                + "the server may already have acted on it")
        #expect("\(Self.decide(.failure(CancellationError())))" == "do not retry: the call was cancelled")
    }
}

extension RetrySettings.Decision {
    /// Whether the decision is to retry.
    fileprivate var retries: Bool {
        if case .retry = self { true } else { false }
    }
}
