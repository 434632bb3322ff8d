import NetworkingCore

// Spellings before 1.0, kept so code written for them still compiles (with a warning naming the new one).

/// The retry rules' name before 1.0.
@available(*, deprecated, renamed: "RetrySettings")
public typealias RetryPolicy = RetrySettings

extension RetryBehavior {
    /// The rules for retrying: ``settings`` before 1.0.
    @available(*, deprecated, renamed: "settings")
    public var policy: RetrySettings { settings }

    /// Creates a retry behavior: `init(settings:clock:random:onRetry:)` before 1.0.
    ///
    /// - Parameters:
    ///   - policy: The rules for retrying.
    ///   - clock: The clock to wait on; the call's clock (the client's) unless given.
    ///   - random: The source of jitter, returning a number in `0..<1`.
    ///   - onRetry: Called before each wait, for logging.
    @available(*, deprecated, renamed: "init(settings:clock:random:onRetry:)")
    public init(
        policy: RetrySettings, clock: (any NetworkClock)? = nil,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        onRetry: (@Sendable (Event) -> Void)? = nil
    ) {
        self.init(settings: policy, clock: clock, random: random, onRetry: onRetry)
    }
}
