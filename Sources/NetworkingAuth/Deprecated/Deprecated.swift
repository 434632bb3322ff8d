import NetworkingCore

// Spellings before 1.0, kept so code written for them still compiles (with a warning naming the new one).

extension TokenRefreshBehavior {
    /// The behavior's settings: ``TokenRefreshSettings`` before 1.0.
    @available(*, deprecated, renamed: "TokenRefreshSettings")
    public typealias Configuration = TokenRefreshSettings

    /// The settings in force: ``settings`` before 1.0.
    @available(*, deprecated, renamed: "settings")
    public var configuration: TokenRefreshSettings { settings }

    /// Creates the behavior: `init(initial:refresher:clock:settings:)` before 1.0.
    ///
    /// - Parameters:
    ///   - initial: The credential to start with; `nil` makes the first call refresh.
    ///   - refresher: Obtains new credentials.
    ///   - clock: The clock for expiry and the loop guard; `nil` uses the call's clock.
    ///   - configuration: Header, scheme and limits.
    @available(*, deprecated, renamed: "init(initial:refresher:clock:settings:)")
    public convenience init(
        initial: AccessCredential?, refresher: any TokenRefresher, clock: (any NetworkClock)? = nil,
        configuration: TokenRefreshSettings
    ) {
        self.init(initial: initial, refresher: refresher, clock: clock, settings: configuration)
    }
}
