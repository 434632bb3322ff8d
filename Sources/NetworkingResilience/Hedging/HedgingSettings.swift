import Foundation
import NetworkingHTTP
import NetworkingCore

/// The rules of a ``HedgingBehavior``: how many extra attempts, after how long, and which latencies decide it.
///
/// Every value is checked here, so a bad one stops the app where it is configured:
/// ```swift
/// let settings = try HedgingSettings(maximumHedges: 2, delay: .fixed(.milliseconds(300)))
/// ```
/// `maximumHedges` below 1, a delay or fallback of zero or less, a percentile outside `0 < p < 100` (or NaN) and
/// `minimumSamples` below 1 throw `BehaviorSettingsError`.
public struct HedgingSettings: Sendable {
    /// The default of ``maximumHedges``: 1. One hedge already cuts most of the tail, and each further one adds load
    /// to a server that may be slow precisely because it is loaded (Polly's default too).
    public static let defaultMaximumHedges = 1
    /// The default of ``delay``: the 95th percentile of recent latencies, as in Dean and Barroso's "The Tail at
    /// Scale": only the slowest 5 % of calls are hedged, so the extra load stays near 5 %; 1 second until enough
    /// latencies are known, a wait few healthy calls reach.
    public static let defaultDelay = HedgingDelay.percentile(95, fallback: .seconds(1))
    /// The default of ``minimumSamples``: 20, the fewest latencies whose 95th percentile is not simply the
    /// slowest one seen.
    public static let defaultMinimumSamples = 20

    /// The most extra attempts per call, besides the first. At least 1.
    public let maximumHedges: Int
    /// How long to wait for the newest attempt before sending another.
    public let delay: HedgingDelay
    /// How many latencies a partition needs before a percentile delay uses them. At least 1.
    public let minimumSamples: Int
    /// Which calls share latencies. Default: `.host`, since the latencies of one server are alike enough to
    /// judge each other, while the client's other hosts may be much faster or slower; use `.custom` for
    /// per-endpoint latencies.
    public let scope: BehaviorScope
    /// A header that makes a request with a non-idempotent method safe to hedge (the server recognises the
    /// duplicate). Default: `HTTPField/Name/idempotencyKey`, the header ``IdempotencyKeyBehavior`` sets; `nil`
    /// hedges idempotent methods only.
    public let idempotencyKeyHeader: HTTPField.Name?

    /// Creates settings, checking every value.
    ///
    /// - Parameters:
    ///   - maximumHedges: The most extra attempts; ``defaultMaximumHedges`` unless given.
    ///   - delay: The wait before each extra attempt; ``defaultDelay`` unless given.
    ///   - minimumSamples: Latencies needed for a percentile; ``defaultMinimumSamples`` unless given.
    ///   - scope: Which calls share latencies; `.host` unless given.
    ///   - idempotencyKeyHeader: The header that makes any method hedgeable; `Idempotency-Key` unless given.
    /// - Throws: `BehaviorSettingsError` naming the first bad value.
    public init(
        maximumHedges: Int = defaultMaximumHedges,
        delay: HedgingDelay = defaultDelay,
        minimumSamples: Int = defaultMinimumSamples,
        scope: BehaviorScope = .host,
        idempotencyKeyHeader: HTTPField.Name? = .idempotencyKey
    ) throws {
        let name = "HedgingSettings"
        try BehaviorSettingsError.require(maximumHedges, atLeast: 1, "maximumHedges", in: name)
        switch delay {
        case .fixed(let wait):
            try BehaviorSettingsError.require(wait, above: .zero, "delay", in: name)
        case .percentile(let percentile, let fallback):
            guard !percentile.isNaN, percentile > 0, percentile < 100 else {
                throw BehaviorSettingsError(
                    settings: name, setting: "delay.percentile", value: "\(percentile)",
                    requirement: "it must be between 0 and 100 (excluded)")
            }
            try BehaviorSettingsError.require(fallback, above: .zero, "delay.fallback", in: name)
        }
        try BehaviorSettingsError.require(minimumSamples, atLeast: 1, "minimumSamples", in: name)
        self.maximumHedges = maximumHedges
        self.delay = delay
        self.minimumSamples = minimumSamples
        self.scope = scope
        self.idempotencyKeyHeader = idempotencyKeyHeader
    }

    private init() {
        maximumHedges = Self.defaultMaximumHedges
        delay = Self.defaultDelay
        minimumSamples = Self.defaultMinimumSamples
        scope = .host
        idempotencyKeyHeader = .idempotencyKey
    }

    /// The defaults: 1 hedge after the 95th percentile (1 s until 20 latencies are known), per host.
    public static var `default`: HedgingSettings { HedgingSettings() }

    /// Whether `request` may be sent more than once: an idempotent method, or the idempotency key header.
    ///
    /// - Parameter request: The request as it reaches the behavior.
    /// - Returns: `true` when hedging it is safe.
    public func allowsHedging(_ request: HTTPRequest) -> Bool {
        if request.method.isIdempotent { return true }
        guard let header = idempotencyKeyHeader, let value = request.headerFields[header] else { return false }
        return !value.isEmpty
    }

    /// The wait before the next attempt of the partition `key`.
    ///
    /// - Parameters:
    ///   - key: The partition.
    ///   - store: Where the partition's latencies are.
    /// - Returns: The fixed delay, the percentile, or the fallback while too few latencies are known.
    public func hedgingDelay(for key: String, in store: any LatencyStore) -> Duration {
        switch delay {
        case .fixed(let wait): wait
        case .percentile(let percentile, let fallback):
            store.percentile(percentile, for: key, minimumSamples: minimumSamples) ?? fallback
        }
    }
}
