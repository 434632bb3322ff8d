import Foundation
import NetworkingHTTP
import NetworkingCore

/// Sends a failed request again, as a ``RetrySettings`` decides, waiting on an injected clock between attempts.
///
/// ```swift
/// let client = NetworkClient(
///     baseURL: url,
///     behavior: CombinedBehavior([.retry(onRetry: { print($0) }), .authorization(.bearer, store: tokens)])
/// )
/// ```
/// Place it outside behaviors that must run on every attempt (authorization, request signing): they run inside
/// `next`, so they apply their headers again to each attempt. The same request is sent each time.
///
/// It never waits past the call's deadline (`RequestContext/deadline`): when the wait would end after it, the
/// last failure is reported at once.
///
/// Cancellation stops it at once: a cancelled wait throws `CancellationError` and no further attempt is made, and
/// `CancellationError` from an attempt is never retried. When it gives up, it rethrows the last attempt's error
/// unchanged.
public struct RetryBehavior: RequestBehavior {
    /// `BehaviorPlacement/retry`: everything inside runs again on each attempt.
    public var placement: BehaviorPlacement { .retry }

    /// One retry about to happen, for logs and demos.
    public struct Event: Sendable, Hashable, CustomStringConvertible {
        /// The request's name, such as `GET /users/42`.
        public let requestName: String
        /// The number of the attempt about to be made, from 2.
        public let attempt: Int
        /// The policy's ``RetrySettings/maximumAttempts``.
        public let maximumAttempts: Int
        /// The wait before that attempt.
        public let delay: Duration
        /// What went wrong with the previous attempt, such as `unacceptableStatus(503)` or `transport(cannotConnect)`.
        public let reason: String

        /// Creates an event.
        ///
        /// - Parameters:
        ///   - requestName: The request's name.
        ///   - attempt: The number of the attempt about to be made.
        ///   - maximumAttempts: The most attempts the policy allows.
        ///   - delay: The wait before the attempt.
        ///   - reason: What went wrong with the previous attempt.
        public init(requestName: String, attempt: Int, maximumAttempts: Int, delay: Duration, reason: String) {
            self.requestName = requestName
            self.attempt = attempt
            self.maximumAttempts = maximumAttempts
            self.delay = delay
            self.reason = reason
        }

        /// `retrying GET /users/42 after unacceptableStatus(503) in 0.4 s (attempt 2/3)`.
        public var description: String {
            "retrying \(requestName) after \(reason) in \(RetrySettings.format(delay)) "
                + "(attempt \(attempt)/\(maximumAttempts))"
        }
    }

    /// The rules for retrying.
    public let settings: RetrySettings
    /// The clock the behavior waits on and measures the time budget with; `nil` uses the call's clock.
    public let clock: (any NetworkClock)?
    /// The source of jitter: returns a number in `0..<1`.
    public let random: @Sendable () -> Double
    /// Called just before each wait, with what is about to happen.
    public let onRetry: (@Sendable (Event) -> Void)?

    /// Creates a retry behavior.
    ///
    /// - Parameters:
    ///   - settings: The rules for retrying; ``RetrySettings/default`` unless given.
    ///   - clock: The clock to wait on; the call's clock (the client's) unless given.
    ///   - random: The source of jitter, returning a number in `0..<1`; uniform random unless given.
    ///   - onRetry: Called before each wait, for logging; `nil` for nothing.
    public init(
        settings: RetrySettings = .default,
        clock: (any NetworkClock)? = nil,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        onRetry: (@Sendable (Event) -> Void)? = nil
    ) {
        self.settings = settings
        self.clock = clock
        self.random = random
        self.onRetry = onRetry
    }

    /// Sends `request` through `next` until it succeeds, the policy gives up, or the task is cancelled.
    ///
    /// - Parameters:
    ///   - request: The request to send, unchanged, on every attempt.
    ///   - context: The call's context; its name appears in ``Event``s.
    ///   - next: The rest of the chain, called once per attempt.
    /// - Returns: The first acceptable response.
    /// - Throws: The last attempt's error when the policy gives up; `CancellationError` when cancelled.
    public func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        let clock = self.clock ?? context.clock
        let start = clock.now()
        var attempt = 1
        while true {
            do {
                return try await next(request)
            } catch {
                if error is CancellationError { throw error }
                let decision = settings.decision(
                    for: request, error: error, attempt: attempt, elapsed: clock.now() - start, now: clock.date(),
                    random: random)
                guard case .retry(let delay) = decision else { throw error }
                // Cancelled when another attempt was due: the call ends as cancelled, as a cancelled wait does
                // (found by make soak: a cancelled call reported the 503 it was about to retry).
                if Task.isCancelled { throw CancellationError() }
                // Waiting past the call's deadline would only end in a timeout: report the real failure instead.
                if let remaining = context.deadline?.remaining(), delay >= remaining { throw error }
                attempt += 1
                onRetry?(
                    Event(
                        requestName: context.requestName, attempt: attempt, maximumAttempts: settings.maximumAttempts,
                        delay: delay, reason: Self.describe(error)))
                try await clock.sleep(for: delay)
                try Task.checkCancellation()
            }
        }
    }

    /// A short name for what went wrong: the `NetworkError` kind, the transport code, or the error's type.
    private static func describe(_ error: any Error) -> String {
        switch error {
        case let error as NetworkError: "\(error.kind)"
        case let error as TransportError: "transport(\(error.code.rawValue))"
        default: "\(type(of: error))"
        }
    }
}

extension RequestBehavior where Self == RetryBehavior {
    /// A behavior that retries failed requests as `settings` decide.
    ///
    /// - Parameters:
    ///   - settings: The rules for retrying; `RetrySettings/default` unless given.
    ///   - clock: The clock to wait on; the call's clock (the client's) unless given.
    ///   - random: The source of jitter, returning a number in `0..<1`.
    ///   - onRetry: Called before each wait, for logging.
    /// - Returns: The retry behavior.
    public static func retry(
        _ settings: RetrySettings = .default,
        clock: (any NetworkClock)? = nil,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        onRetry: (@Sendable (RetryBehavior.Event) -> Void)? = nil
    ) -> RetryBehavior {
        RetryBehavior(settings: settings, clock: clock, random: random, onRetry: onRetry)
    }
}
