import Foundation

/// The default ``CookieJar``: cookies in memory, behind a lock, gone with the jar.
///
/// It keeps at most ``maximumCount`` cookies: past it, the ones that expire soonest (session cookies last), then
/// the oldest, are dropped.
public final class InMemoryCookieJar: CookieJar {
    private let stored = LockedBox([Cookie]())
    /// The most cookies kept: 3,000, the least RFC 6265 §6.1 asks a user agent to hold.
    public let maximumCount: Int

    /// Creates an empty jar.
    ///
    /// - Parameter maximumCount: The most cookies kept; 3,000 by default, and never less than 1.
    public init(maximumCount: Int = 3_000) {
        self.maximumCount = max(1, maximumCount)
    }

    /// Every cookie stored, expired ones included until the next save or lookup.
    public var all: [Cookie] { stored.current }

    /// Stores `cookies`, replacing those of the same name, domain and path, keeping their creation date.
    ///
    /// - Parameters:
    ///   - cookies: Cookies received in one response.
    ///   - now: The current date.
    public func save(_ cookies: [Cookie], at now: Date) {
        let limit = maximumCount
        stored.withLock { stored in
            stored.removeAll { $0.isExpired(at: now) }
            for cookie in cookies {
                if let old = stored.firstIndex(where: cookie.replaces) {
                    if cookie.isExpired(at: now) {
                        stored.remove(at: old)
                    } else {
                        stored[old] = cookie.created(at: stored[old].createdAt)
                    }
                } else if !cookie.isExpired(at: now) {
                    stored.append(cookie)
                }
            }
            if stored.count > limit {
                let keep = stored.enumerated().sorted { lhs, rhs in
                    let l = lhs.element.expiresAt ?? .distantFuture
                    let r = rhs.element.expiresAt ?? .distantFuture
                    return l != r ? l > r : lhs.offset > rhs.offset
                }.prefix(limit).map(\.offset)
                let kept = Set(keep)
                stored = stored.enumerated().filter { kept.contains($0.offset) }.map(\.element)
            }
        }
    }

    /// The unexpired cookies that match `url`: longer paths first, then older first.
    ///
    /// - Parameters:
    ///   - url: The request's URL.
    ///   - now: The current date.
    /// - Returns: The cookies to send.
    public func cookies(for url: URL, at now: Date) -> [Cookie] {
        let matching = stored.withLock { stored in
            stored.removeAll { $0.isExpired(at: now) }
            return stored.enumerated().filter { $0.element.matches(url) }
        }
        return matching.sorted { lhs, rhs in
            if lhs.element.path.count != rhs.element.path.count {
                return lhs.element.path.count > rhs.element.path.count
            }
            if lhs.element.createdAt != rhs.element.createdAt { return lhs.element.createdAt < rhs.element.createdAt }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }
}
