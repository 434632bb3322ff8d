import Foundation
import NetworkingHTTP
import NetworkingCore

/// When a ``CircuitBreakerBehavior`` opens, how long it stays open, and how it tests the water again.
///
/// Every value is checked when the settings are made: a zero, negative or NaN value, or a ratio above 1, throws
/// `BehaviorSettingsError` naming the setting.
/// ```swift
/// let settings = try CircuitBreakerSettings(failureRatio: 0.25, minimumThroughput: 20)
/// let breaker = CircuitBreakerBehavior.circuitBreaker(settings)
/// ```
///
/// The defaults are made for an app talking to its own API, not for a server calling other servers (Polly's
/// standard pipeline uses a ratio of 0.1 over at least 100 calls in 30 s: a single user's app rarely makes 100
/// calls to one host in 30 s, so such a breaker would never open).
public struct CircuitBreakerSettings: Sendable, Hashable {
    /// The share of failed calls in the sampling window, from 0 (excluded) to 1, at or above which the circuit
    /// opens.
    ///
    /// Default: 0.5. The host fails at least as often as it works: with the few calls an app makes, a lower ratio
    /// would open on one or two unlucky failures.
    public let failureRatio: Double
    /// The fewest calls the sampling window must hold before the ratio counts.
    ///
    /// Default: 10. Five failures out of ten is evidence; one out of one is not. Ten calls in 30 s is what a busy
    /// screen (a list and its images, a retrying sync) makes.
    public let minimumThroughput: Int
    /// How far back outcomes count. The window slides in tenths: outcomes older than the window are forgotten a
    /// tenth of a window at a time.
    ///
    /// Default: 30 seconds (as Polly): long enough to gather ten calls, short enough that yesterday's outage does
    /// not count against today's server.
    public let samplingWindow: Duration
    /// How long the circuit stays open before letting probes through.
    ///
    /// Default: 5 seconds (as Polly): long enough to stop a storm of retries and spare a struggling server, short
    /// enough that a user who pulls to refresh soon gets a real attempt.
    public let breakDuration: Duration
    /// How many calls may go through while half-open; all of them must succeed for the circuit to close, and any
    /// failure opens it again. Further calls fail fast while the probes are out.
    ///
    /// Default: 1 (as Polly): one call is enough to learn the server is back, and the least load if it is not.
    public let halfOpenProbes: Int
    /// The longest break a `Retry-After` header on a 429 or 503 may ask for: a longer one is cut to this cap, an
    /// unparsable one is ignored, and one shorter than ``breakDuration`` never shortens the break.
    ///
    /// Default: 60 seconds, the same cap ``RetrySettings/maximumRetryAfter`` puts on waiting: one header must not
    /// keep an app offline for hours.
    public let maximumBreakDuration: Duration

    /// The default failure ratio, 0.5.
    public static let defaultFailureRatio = 0.5
    /// The default minimum throughput, 10 calls.
    public static let defaultMinimumThroughput = 10
    /// The default sampling window, 30 seconds.
    public static let defaultSamplingWindow: Duration = .seconds(30)
    /// The default break duration, 5 seconds.
    public static let defaultBreakDuration: Duration = .seconds(5)
    /// The default number of half-open probes, 1.
    public static let defaultHalfOpenProbes = 1
    /// The default cap on a break lengthened by `Retry-After`, 60 seconds.
    public static let defaultMaximumBreakDuration: Duration = .seconds(60)

    /// The defaults, each explained on its property.
    public static var `default`: CircuitBreakerSettings {
        CircuitBreakerSettings(
            checked: defaultFailureRatio, defaultMinimumThroughput, defaultSamplingWindow, defaultBreakDuration,
            defaultHalfOpenProbes, defaultMaximumBreakDuration)
    }

    /// Creates settings, rejecting values that cannot work.
    ///
    /// - Parameters:
    ///   - failureRatio: The failure share that opens the circuit, more than 0 and at most 1.
    ///   - minimumThroughput: The fewest calls in the window for the ratio to count, at least 1.
    ///   - samplingWindow: How far back outcomes count, at least 10 milliseconds.
    ///   - breakDuration: How long the circuit stays open, more than 0.
    ///   - halfOpenProbes: How many probes go through while half-open, at least 1.
    ///   - maximumBreakDuration: The cap on a break lengthened by `Retry-After`, at least `breakDuration`.
    /// - Throws: `BehaviorSettingsError` naming the first bad setting.
    public init(
        failureRatio: Double = defaultFailureRatio,
        minimumThroughput: Int = defaultMinimumThroughput,
        samplingWindow: Duration = defaultSamplingWindow,
        breakDuration: Duration = defaultBreakDuration,
        halfOpenProbes: Int = defaultHalfOpenProbes,
        maximumBreakDuration: Duration = defaultMaximumBreakDuration
    ) throws {
        let name = "CircuitBreakerSettings"
        guard failureRatio > 0, failureRatio <= 1 else {
            throw BehaviorSettingsError(
                settings: name, setting: "failureRatio", value: "\(failureRatio)",
                requirement: "it must be more than 0 and at most 1")
        }
        try BehaviorSettingsError.require(minimumThroughput, atLeast: 1, "minimumThroughput", in: name)
        try BehaviorSettingsError.require(samplingWindow, atLeast: .milliseconds(10), "samplingWindow", in: name)
        try BehaviorSettingsError.require(breakDuration, above: .zero, "breakDuration", in: name)
        try BehaviorSettingsError.require(halfOpenProbes, atLeast: 1, "halfOpenProbes", in: name)
        try BehaviorSettingsError.require(
            maximumBreakDuration, atLeast: breakDuration, "maximumBreakDuration", in: name)
        self.init(
            checked: failureRatio, minimumThroughput, samplingWindow, breakDuration, halfOpenProbes,
            maximumBreakDuration)
    }

    private init(
        checked failureRatio: Double, _ minimumThroughput: Int, _ samplingWindow: Duration, _ breakDuration: Duration,
        _ halfOpenProbes: Int, _ maximumBreakDuration: Duration
    ) {
        self.failureRatio = failureRatio
        self.minimumThroughput = minimumThroughput
        self.samplingWindow = samplingWindow
        self.breakDuration = breakDuration
        self.halfOpenProbes = halfOpenProbes
        self.maximumBreakDuration = maximumBreakDuration
    }

    /// How long a break lasts when the failure that opened it asked for `retryAfter`: never shorter than
    /// ``breakDuration``, never longer than ``maximumBreakDuration``.
    ///
    /// - Parameter retryAfter: The delay the server asked for, if it did.
    /// - Returns: The break's length.
    public func breakLength(retryAfter: Duration?) -> Duration {
        guard let retryAfter else { return breakDuration }
        return max(breakDuration, min(retryAfter, maximumBreakDuration))
    }
}
