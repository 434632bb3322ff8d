// Spellings before 1.0, kept so code written for them still compiles (with a warning naming the new one).

/// A behavior that writes each hook it receives: ``HookTraceBehavior`` before 1.0, renamed apart from
/// `RecordingTransport`, which records traffic.
@available(*, deprecated, renamed: "HookTraceBehavior")
public typealias RecordingBehavior = HookTraceBehavior

/// The events ``HookTraceBehavior`` writes: ``HookTrace`` before 1.0.
@available(*, deprecated, renamed: "HookTrace")
public typealias EventLog = HookTrace
