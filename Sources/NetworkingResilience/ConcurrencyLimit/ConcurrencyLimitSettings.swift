import Foundation
import NetworkingHTTP
import NetworkingCore

/// The limits of a ``ConcurrencyLimitBehavior``: how many calls may be in flight at once, how many may wait for a
/// free slot, and which calls share those limits.
///
/// Every value is checked here, so a bad one stops the app where it is configured:
/// ```swift
/// let settings = try ConcurrencyLimitSettings(maximumInFlight: 4, maximumQueueLength: 20, scope: .host)
/// ```
/// `maximumInFlight` below 1 or `maximumQueueLength` below 0 throws `BehaviorSettingsError`, such as
/// `ConcurrencyLimitSettings.maximumInFlight is 0; it must be at least 1`.
public struct ConcurrencyLimitSettings: Sendable {
    /// The default of ``maximumInFlight``: 6, the number of connections browsers open to one host, a figure servers
    /// and proxies are sized for; more calls at once mostly queue in the transport or the server instead.
    public static let defaultMaximumInFlight = 6
    /// The default of ``maximumQueueLength``: 100, enough for the burst of calls a screen or a sync starts at once,
    /// while a longer backlog means the server cannot keep up: failing fast then beats holding memory and callers.
    public static let defaultMaximumQueueLength = 100

    /// The most calls of one partition that may be in flight at once. At least 1.
    public let maximumInFlight: Int
    /// The most calls of one partition that may wait, in arrival order, for a free slot; a call beyond it fails at
    /// once with ``ConcurrencyLimitExceededError``. At least 0; 0 means no waiting at all.
    public let maximumQueueLength: Int
    /// Which calls share one set of limits. Default: `.client`, so the limits bound everything the client sends
    /// (sockets, memory and the load put on a backend, which is usually one host); use `.host` for a client that
    /// talks to several independent hosts, so a slow one cannot take every slot.
    public let scope: BehaviorScope

    /// Creates settings, checking every value.
    ///
    /// - Parameters:
    ///   - maximumInFlight: The most calls in flight at once; ``defaultMaximumInFlight`` unless given.
    ///   - maximumQueueLength: The most calls waiting; ``defaultMaximumQueueLength`` unless given.
    ///   - scope: Which calls share the limits; `.client` unless given.
    /// - Throws: `BehaviorSettingsError` when `maximumInFlight` is below 1 or `maximumQueueLength` below 0.
    public init(
        maximumInFlight: Int = defaultMaximumInFlight,
        maximumQueueLength: Int = defaultMaximumQueueLength,
        scope: BehaviorScope = .client
    ) throws {
        let name = "ConcurrencyLimitSettings"
        try BehaviorSettingsError.require(maximumInFlight, atLeast: 1, "maximumInFlight", in: name)
        try BehaviorSettingsError.require(maximumQueueLength, atLeast: 0, "maximumQueueLength", in: name)
        self.init(unchecked: maximumInFlight, maximumQueueLength, scope)
    }

    private init(unchecked maximumInFlight: Int, _ maximumQueueLength: Int, _ scope: BehaviorScope) {
        self.maximumInFlight = maximumInFlight
        self.maximumQueueLength = maximumQueueLength
        self.scope = scope
    }

    /// The defaults: 6 in flight, 100 waiting, one partition for the whole client.
    public static var `default`: ConcurrencyLimitSettings {
        ConcurrencyLimitSettings(unchecked: defaultMaximumInFlight, defaultMaximumQueueLength, .client)
    }
}
