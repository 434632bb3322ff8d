import Foundation
import NetworkingHTTP
import NetworkingCore

/// What one request asks of the HTTP cache: its `Cache-Control` request directives (RFC 9111 §5.2.1, RFC 5861 §4),
/// typed. Send it with a call through ``CacheRequestPolicyBehavior`` (`.cachePolicy(_:)`), or write
/// ``headerValue`` into the request's `Cache-Control` yourself.
///
/// ```swift
/// // Offline: what the cache holds, however stale, or a 504 at once; never the network.
/// let saved = try await client.send(NetworkRequest<[Item]>(path: "/items"), behavior: .cachePolicy(.offline))
/// ```
///
/// | Directive | Property | What the cache does |
/// |---|---|---|
/// | `max-age=N` | ``maxAge`` | a stored response older than N seconds is revalidated first |
/// | `max-stale[=N]` | ``maxStale`` | a stale response (stale for at most N seconds, or any) answers, unless it says `no-cache` or `must-revalidate` |
/// | `min-fresh=N` | ``minFresh`` | a response that will not stay fresh for N more seconds is revalidated first |
/// | `no-cache` | ``noCache`` | the stored response is revalidated before it answers |
/// | `no-store` | ``noStore`` | the cache stays out: nothing stored answers, nothing is stored |
/// | `only-if-cached` | ``onlyIfCached`` | a stored response that may answer, or a `504` (``OnlyIfCachedMiss``); never the network |
/// | `stale-if-error=N` | ``staleIfError`` | when the network fails (or answers 500, 502, 503, 504), a response stale for at most N seconds answers |
public struct CacheRequestPolicy: Sendable, Hashable, CustomStringConvertible {
    /// How stale a response the request accepts (`max-stale`).
    public enum Staleness: Sendable, Hashable {
        /// Any staleness: `max-stale` without a value.
        case any
        /// Stale for at most this long: `max-stale=N`, in whole seconds.
        case upTo(Duration)
    }

    /// `max-age`: the oldest stored response that may answer without revalidation.
    public var maxAge: Duration?
    /// `max-stale`: how stale a response may answer.
    public var maxStale: Staleness?
    /// `min-fresh`: how long a response must still stay fresh to answer.
    public var minFresh: Duration?
    /// `no-cache`: revalidate the stored response before it answers.
    public var noCache: Bool
    /// `no-store`: keep the cache out of this call.
    public var noStore: Bool
    /// `only-if-cached`: never the network; a `504` when nothing stored may answer.
    public var onlyIfCached: Bool
    /// `stale-if-error`: how stale a response may answer when the network fails.
    public var staleIfError: Duration?

    /// Creates a policy; nothing is asked unless given.
    ///
    /// - Parameters:
    ///   - maxAge: `max-age`.
    ///   - maxStale: `max-stale`.
    ///   - minFresh: `min-fresh`.
    ///   - noCache: `no-cache`.
    ///   - noStore: `no-store`.
    ///   - onlyIfCached: `only-if-cached`.
    ///   - staleIfError: `stale-if-error`.
    public init(
        maxAge: Duration? = nil, maxStale: Staleness? = nil, minFresh: Duration? = nil, noCache: Bool = false,
        noStore: Bool = false, onlyIfCached: Bool = false, staleIfError: Duration? = nil
    ) {
        self.maxAge = maxAge
        self.maxStale = maxStale
        self.minFresh = minFresh
        self.noCache = noCache
        self.noStore = noStore
        self.onlyIfCached = onlyIfCached
        self.staleIfError = staleIfError
    }

    /// Offline: whatever the cache holds, however stale, or a `504` at once (`max-stale, only-if-cached`); a stored
    /// response that says `no-cache` or `must-revalidate` is never served stale, so it gets the `504` too. The
    /// first half of "show what you have, then refresh".
    public static let offline = CacheRequestPolicy(maxStale: .any, onlyIfCached: true)
    /// A reload: the stored response is revalidated with the server before it answers (`no-cache`).
    public static let reload = CacheRequestPolicy(noCache: true)
    /// Past the cache: nothing stored answers and nothing is stored (`no-store`).
    public static let bypass = CacheRequestPolicy(noStore: true)

    /// The network first, and when it fails, a stored response stale for at most `limit` (`stale-if-error`).
    ///
    /// - Parameter limit: The most staleness accepted after a failure.
    /// - Returns: The policy.
    public static func staleIfError(upTo limit: Duration) -> CacheRequestPolicy {
        CacheRequestPolicy(staleIfError: limit)
    }

    /// The `Cache-Control` value, directives in the table's order: `max-stale, only-if-cached`. Empty when nothing
    /// is asked. Durations are whole seconds, never negative, rounded down, but `min-fresh` up (it never asks for
    /// less than given).
    public var headerValue: String {
        var directives: [String] = []
        if let maxAge { directives.append("max-age=\(Self.seconds(maxAge))") }
        switch maxStale {
        case .any: directives.append("max-stale")
        case .upTo(let limit): directives.append("max-stale=\(Self.seconds(limit))")
        case nil: break
        }
        if let minFresh { directives.append("min-fresh=\(Self.seconds(minFresh, roundingUp: true))") }
        if noCache { directives.append("no-cache") }
        if noStore { directives.append("no-store") }
        if onlyIfCached { directives.append("only-if-cached") }
        if let staleIfError { directives.append("stale-if-error=\(Self.seconds(staleIfError))") }
        return directives.joined(separator: ", ")
    }

    /// ``headerValue``.
    public var description: String { headerValue }

    private static func seconds(_ duration: Duration, roundingUp: Bool = false) -> Int64 {
        let (whole, fraction) = duration.components
        return max(0, roundingUp && fraction > 0 ? whole + 1 : whole)
    }
}
