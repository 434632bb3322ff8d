import Foundation
import NetworkingHTTP
import NetworkingCore

/// The cookie store of RFC 6265 as a pure value: what is kept (§5.3 steps 11-12, expiry, eviction), what goes in a
/// request's `Cookie` header, and in what order (§5.4). ``InMemoryCookieJar`` keeps one behind a lock; a
/// ``CookieJar`` of your own can keep one too.
///
/// ```swift
/// var store = CookieStore()
/// store.insert([cookie], at: now)
/// let header = CookieStore.cookieString(store.cookies(for: url, at: now))   // "sid=31d4; lang=en"
/// ```
///
/// - A cookie of the same name, domain and path as a stored one replaces it and keeps its creation time (§5.3
///   step 11); one that is already expired only removes it.
/// - Expired cookies are removed on every insert and look-up (§5.3: "at any time").
/// - Past ``maximumCount``, cookies are evicted in the order §5.3 asks: first those of a domain holding more than
///   ``maximumCountPerDomain`` cookies, then any; within each, the least recently used first (the earliest
///   last-access time: a look-up that returns a cookie counts as a use, §5.4 step 3).
public struct CookieStore: Sendable, Hashable {
    private var entries: [Entry] = []

    private struct Entry: Sendable, Hashable {
        var cookie: Cookie
        var lastAccess: Date
    }

    /// The most cookies kept: 3,000 by default, the least RFC 6265 §6.1 asks a user agent to hold.
    public let maximumCount: Int

    /// The number of cookies a domain may hold before its own are the first evicted when the store is full:
    /// 50 by default, the least RFC 6265 §6.1 asks a user agent to hold per domain.
    public let maximumCountPerDomain: Int

    /// Creates an empty store.
    ///
    /// - Parameters:
    ///   - maximumCount: The most cookies kept; 3,000 by default, and never less than 1.
    ///   - maximumCountPerDomain: The share of one domain past which its cookies go first; 50 by default, and
    ///     never less than 1.
    public init(maximumCount: Int = 3_000, maximumCountPerDomain: Int = 50) {
        self.maximumCount = max(1, maximumCount)
        self.maximumCountPerDomain = max(1, maximumCountPerDomain)
    }

    /// Every cookie stored, in the order they were first inserted; expired ones included until the next insert or
    /// look-up.
    public var all: [Cookie] { entries.map(\.cookie) }

    /// Stores `cookies` in order, as received in one response (RFC 6265 §5.3 steps 11-12), then removes expired and
    /// excess cookies.
    ///
    /// - Parameters:
    ///   - cookies: Cookies made by ``Cookie/init(_:from:at:)``.
    ///   - now: The current date.
    public mutating func insert(_ cookies: [Cookie], at now: Date) {
        removeExpired(at: now)
        for cookie in cookies {
            if let old = entries.firstIndex(where: { cookie.replaces($0.cookie) }) {
                if cookie.isExpired(at: now) {
                    entries.remove(at: old)
                } else {
                    entries[old] = Entry(cookie: cookie.created(at: entries[old].cookie.createdAt), lastAccess: now)
                }
            } else if !cookie.isExpired(at: now) {
                entries.append(Entry(cookie: cookie, lastAccess: now))
            }
        }
        removeExcess()
    }

    /// The unexpired cookies that go with a request to `url` (RFC 6265 §5.4 steps 1-3): longer paths first, then
    /// earlier creation times; their last-access time becomes `now`.
    ///
    /// - Parameters:
    ///   - url: The request's URL.
    ///   - now: The current date.
    /// - Returns: The cookies, in the order of the `Cookie` header.
    public mutating func cookies(for url: URL, at now: Date) -> [Cookie] {
        removeExpired(at: now)
        var matching: [(offset: Int, cookie: Cookie)] = []
        for index in entries.indices where entries[index].cookie.matches(url) {
            entries[index].lastAccess = now
            matching.append((index, entries[index].cookie))
        }
        return matching.sorted { lhs, rhs in
            let left = lhs.cookie.path.utf8.count
            let right = rhs.cookie.path.utf8.count
            if left != right { return left > right }
            if lhs.cookie.createdAt != rhs.cookie.createdAt { return lhs.cookie.createdAt < rhs.cookie.createdAt }
            return lhs.offset < rhs.offset
        }.map(\.cookie)
    }

    /// Removes every cookie expired at `now` (RFC 6265 §5.3).
    ///
    /// - Parameter now: The current date.
    public mutating func removeExpired(at now: Date) {
        entries.removeAll { $0.cookie.isExpired(at: now) }
    }

    /// The `Cookie` header value of `cookies` (RFC 6265 §5.4 step 4): `name=value` pairs in the given order,
    /// separated by `; `; `nil` for no cookie, as no header is sent then.
    ///
    /// - Parameter cookies: The cookies, as ``cookies(for:at:)`` orders them.
    /// - Returns: The header value.
    public static func cookieString(_ cookies: [Cookie]) -> String? {
        cookies.isEmpty ? nil : cookies.map { $0.name + "=" + $0.value }.joined(separator: "; ")
    }

    /// §5.3 "remove excess cookies": expired cookies are already gone; then cookies of crowded domains, then any,
    /// each time the one with the earliest last-access time (the earliest inserted on a tie).
    private mutating func removeExcess() {
        guard entries.count > maximumCount else { return }
        var perDomain: [String: Int] = [:]
        for entry in entries { perDomain[entry.cookie.domain, default: 0] += 1 }
        while entries.count > maximumCount {
            var victim: Int?
            var victimIsCrowded = false
            for index in entries.indices {
                let crowded = perDomain[entries[index].cookie.domain, default: 0] > maximumCountPerDomain
                guard let current = victim else {
                    (victim, victimIsCrowded) = (index, crowded)
                    continue
                }
                if crowded != victimIsCrowded {
                    if crowded { (victim, victimIsCrowded) = (index, crowded) }
                } else if entries[index].lastAccess < entries[current].lastAccess {
                    victim = index
                }
            }
            guard let victim else { return }
            perDomain[entries[victim].cookie.domain, default: 1] -= 1
            entries.remove(at: victim)
        }
    }
}
