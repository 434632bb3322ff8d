import Foundation
import NetworkingHTTP
import NetworkingCore

/// What an ``HTTPCacheBehavior`` did for one call, reported to its observer: for logs, metrics and tests.
///
/// ```swift
/// let cache = HTTPCacheBehavior(store: InMemoryHTTPCacheStore()) { event in
///     if event.kind == .revalidated { print("served from cache (revalidated): \(event.requestName)") }
/// }
/// ```
public struct HTTPCacheEvent: Sendable, Hashable, CustomStringConvertible {
    /// What happened.
    public enum Kind: String, Sendable, Hashable {
        /// A fresh stored response answered the call; nothing was sent.
        case hit
        /// Nothing usable was stored (none, another `Vary` variant, or no validator to revalidate with).
        case miss
        /// A stale stored response was revalidated: the server answered `304 Not Modified` and the stored body was
        /// returned with updated headers.
        case revalidated
        /// The response was stored, or a `HEAD`'s `200` updated the stored one (RFC 9111 §4.3.5;
        /// ``HTTPCacheEvent/detail`` says so).
        case stored
        /// The response was not stored; ``HTTPCacheEvent/detail`` says why.
        case notStored
        /// An unsafe method (`POST`, `PUT`, `PATCH`, `DELETE`, ...) succeeded, so the stored response for its URL
        /// was removed; or a `HEAD`'s `200` described another representation than the stored response
        /// (``HTTPCacheEvent/detail`` says so).
        case invalidated
        /// A stale stored response answered the call, as `stale-while-revalidate` or `stale-if-error` allow
        /// (RFC 5861); ``HTTPCacheEvent/detail`` says which.
        case servedStale
        /// A revalidation in the background (`stale-while-revalidate`) failed; the stored response stays.
        case revalidationFailed
        /// A malformed `Cache-Control`, `Expires`, `Date` or `Age` value was ignored; ``HTTPCacheEvent/detail``
        /// names it. For a debug log.
        case ignoredHeader
    }

    /// What happened.
    public let kind: Kind
    /// The cache key, the request's URL.
    public let key: String
    /// The request's name, such as `GET /items`.
    public let requestName: String
    /// Why, for ``Kind/notStored``, ``Kind/miss``, ``Kind/servedStale``, ``Kind/revalidationFailed`` and
    /// ``Kind/ignoredHeader``, and for a ``Kind/stored`` or ``Kind/invalidated`` a `HEAD` caused; `nil` otherwise.
    public let detail: String?

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - kind: What happened.
    ///   - key: The cache key.
    ///   - requestName: The request's name.
    ///   - detail: Why, when there is something to say.
    public init(_ kind: Kind, key: String, requestName: String, detail: String? = nil) {
        self.kind = kind
        self.key = key
        self.requestName = requestName
        self.detail = detail
    }

    /// `revalidated GET /items`, with the detail after a colon when there is one.
    public var description: String {
        "\(kind.rawValue) \(requestName)" + (detail.map { ": \($0)" } ?? "")
    }
}
