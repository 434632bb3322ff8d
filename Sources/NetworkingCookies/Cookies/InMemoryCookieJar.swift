import Foundation
import NetworkingHTTP
import NetworkingCore

/// The default ``CookieJar``: a ``CookieStore`` in memory, behind a lock, gone with the jar.
///
/// It follows RFC 6265's storage model through its store: a cookie of the same name, domain and path replaces the
/// stored one and keeps its creation date; expired cookies are removed; past ``maximumCount`` cookies, the least
/// recently used are dropped, those of domains holding more than 50 first.
public final class InMemoryCookieJar: CookieJar {
    private let store: LockedBox<CookieStore>
    /// The most cookies kept: 3,000 by default, the least RFC 6265 §6.1 asks a user agent to hold.
    public let maximumCount: Int

    /// Creates an empty jar.
    ///
    /// - Parameter maximumCount: The most cookies kept; 3,000 by default, and never less than 1.
    public init(maximumCount: Int = 3_000) {
        let store = CookieStore(maximumCount: maximumCount)
        self.store = LockedBox(store)
        self.maximumCount = store.maximumCount
    }

    /// Every cookie stored, expired ones included until the next save or lookup.
    public var all: [Cookie] { store.current.all }

    /// Stores `cookies` (RFC 6265 §5.3 steps 11-12), replacing those of the same name, domain and path and keeping
    /// their creation date.
    ///
    /// - Parameters:
    ///   - cookies: Cookies received in one response.
    ///   - now: The current date.
    public func save(_ cookies: [Cookie], at now: Date) {
        store.withLock { $0.insert(cookies, at: now) }
    }

    /// The unexpired cookies that match `url` (RFC 6265 §5.4): longer paths first, then older first.
    ///
    /// - Parameters:
    ///   - url: The request's URL.
    ///   - now: The current date.
    /// - Returns: The cookies to send.
    public func cookies(for url: URL, at now: Date) -> [Cookie] {
        store.withLock { $0.cookies(for: url, at: now) }
    }
}
