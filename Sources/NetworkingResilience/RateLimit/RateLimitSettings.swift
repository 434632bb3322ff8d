import Foundation
import NetworkingHTTP
import NetworkingCore

/// How many calls a ``RateLimitBehavior`` lets through, how long a call may wait for its turn, and how long a
/// server's `429 Too Many Requests` may pause a host.
///
/// Every value is checked when the settings are made: a zero, negative, NaN or infinite value throws
/// `BehaviorSettingsError` naming the setting, except ``maximumWait``, which may be zero (never wait).
/// ```swift
/// let settings = try RateLimitSettings(capacity: 5, tokensPerSecond: 1)
/// let limiter = RateLimitBehavior.rateLimit(settings)
/// ```
///
/// The defaults never slow an app used by a person (a screen that opens sends its dozen calls at once) but stop a
/// bug that loops on a call from flooding the server with thousands a second.
public struct RateLimitSettings: Sendable, Hashable {
    /// The bucket's size: how many calls may go at once after a quiet spell.
    ///
    /// Default: 20. A screen that opens loads a list, its details and a few images together; twenty covers that
    /// burst without delaying any of it.
    public let capacity: Int
    /// How many tokens come back each second: the sustained rate.
    ///
    /// Default: 10. Far above what a person's taps and scrolls need, far below what a runaway loop would send.
    public let tokensPerSecond: Double
    /// The longest a call waits for a token; a call that would wait longer fails at once with
    /// ``RateLimitedError``, as does a call whose wait would pass its deadline.
    ///
    /// Default: 5 seconds. Past that a person is better served by an error they can act on than by a spinner.
    public let maximumWait: Duration
    /// The longest a `429` with `Retry-After` pauses its host; a longer value is cut to this cap.
    ///
    /// Default: 60 seconds, the same cap ``RetrySettings/maximumRetryAfter`` puts on waiting: one header must not
    /// keep an app offline for hours.
    public let maximumPause: Duration

    /// The default capacity, 20 tokens.
    public static let defaultCapacity = 20
    /// The default refill rate, 10 tokens a second.
    public static let defaultTokensPerSecond = 10.0
    /// The default maximum wait, 5 seconds.
    public static let defaultMaximumWait: Duration = .seconds(5)
    /// The default cap on a pause asked for by `Retry-After`, 60 seconds.
    public static let defaultMaximumPause: Duration = .seconds(60)

    /// The defaults, each explained on its property.
    public static var `default`: RateLimitSettings {
        RateLimitSettings(
            checked: defaultCapacity, defaultTokensPerSecond, defaultMaximumWait, defaultMaximumPause)
    }

    /// Creates settings, rejecting values that cannot work.
    ///
    /// - Parameters:
    ///   - capacity: The bucket's size, at least 1.
    ///   - tokensPerSecond: The refill rate, more than 0 and finite.
    ///   - maximumWait: The longest wait for a token, zero (never wait) or more.
    ///   - maximumPause: The cap on a pause asked for by `Retry-After`, more than 0.
    /// - Throws: `BehaviorSettingsError` naming the first bad setting.
    public init(
        capacity: Int = defaultCapacity,
        tokensPerSecond: Double = defaultTokensPerSecond,
        maximumWait: Duration = defaultMaximumWait,
        maximumPause: Duration = defaultMaximumPause
    ) throws {
        let name = "RateLimitSettings"
        try BehaviorSettingsError.require(capacity, atLeast: 1, "capacity", in: name)
        guard tokensPerSecond > 0, tokensPerSecond.isFinite else {
            throw BehaviorSettingsError(
                settings: name, setting: "tokensPerSecond", value: "\(tokensPerSecond)",
                requirement: "it must be more than 0 and finite")
        }
        try BehaviorSettingsError.require(maximumWait, atLeast: .zero, "maximumWait", in: name)
        try BehaviorSettingsError.require(maximumPause, above: .zero, "maximumPause", in: name)
        self.init(checked: capacity, tokensPerSecond, maximumWait, maximumPause)
    }

    private init(checked capacity: Int, _ tokensPerSecond: Double, _ maximumWait: Duration, _ maximumPause: Duration) {
        self.capacity = capacity
        self.tokensPerSecond = tokensPerSecond
        self.maximumWait = maximumWait
        self.maximumPause = maximumPause
    }
}
