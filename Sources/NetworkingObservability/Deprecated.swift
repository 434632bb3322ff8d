import NetworkingCore

// Spellings before 1.0, kept so code written for them still compiles (with a warning naming the new one).

/// The activity counter's storage: ``ActivityCounterStore`` before 1.0, when every other injected storage was
/// already a store.
@available(*, deprecated, renamed: "ActivityCounterStore")
public typealias ActivityCounterState = ActivityCounterStore

/// The default activity counter store: ``InMemoryActivityCounterStore`` before 1.0.
@available(*, deprecated, renamed: "InMemoryActivityCounterStore")
public typealias InMemoryActivityCounterState = InMemoryActivityCounterStore

extension ActivityCounterBehavior {
    /// The counter: ``store`` before 1.0.
    @available(*, deprecated, renamed: "store")
    public var state: any ActivityCounterStore { store }

    /// Creates the behavior: `init(store:onChange:)` before 1.0.
    ///
    /// - Parameters:
    ///   - state: The counter.
    ///   - onChange: Called with `true` when the count goes from 0 to 1 and `false` when it returns to 0.
    @available(*, deprecated, renamed: "init(store:onChange:)")
    public init(state: any ActivityCounterStore, onChange: @escaping @Sendable (_ isBusy: Bool) -> Void = { _ in }) {
        self.init(store: state, onChange: onChange)
    }
}

extension RequestBehavior where Self == ActivityCounterBehavior {
    /// Counts calls in flight: `activityCounter(store:onChange:)` before 1.0.
    ///
    /// - Parameters:
    ///   - state: The counter.
    ///   - onChange: Called with `true` when the count goes from 0 to 1 and `false` when it returns to 0.
    /// - Returns: The behavior.
    @available(*, deprecated, renamed: "activityCounter(store:onChange:)")
    public static func activityCounter(
        state: any ActivityCounterStore, onChange: @escaping @Sendable (_ isBusy: Bool) -> Void = { _ in }
    ) -> ActivityCounterBehavior {
        ActivityCounterBehavior(store: state, onChange: onChange)
    }
}

extension LoggingBehavior {
    /// Whether each attempt is logged as it leaves: ``logsEachAttempt`` before 1.0.
    @available(*, deprecated, renamed: "logsEachAttempt")
    public var eachAttempt: Bool { logsEachAttempt }
}

/// Renders a request as a `curl` command: ``CurlRenderer`` before 1.0.
@available(*, deprecated, renamed: "CurlRenderer")
public typealias CURLRenderer = CurlRenderer
