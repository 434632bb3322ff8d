import Foundation

/// A cookie as a jar stores it (RFC 6265 §5.3): where it may be sent, until when, and in what order.
///
/// ```swift
/// let url = URL(string: "https://www.example.com/account/login")!
/// let set = SetCookie.parse("sid=31d4; Domain=example.com; Path=/; Secure")!
/// let cookie = Cookie(set, from: url, at: Date())!
/// cookie.matches(URL(string: "https://api.example.com/v1")!)   // true: a subdomain of example.com
/// cookie.matches(URL(string: "http://api.example.com/v1")!)    // false: Secure
/// ```
public struct Cookie: Sendable, Hashable {
    /// The name.
    public let name: String
    /// The value.
    public let value: String
    /// The host (host-only) or domain it belongs to, lower-cased.
    public let domain: String
    /// Whether it goes to ``domain`` exactly, not to its subdomains: set without a `Domain` attribute.
    public let isHostOnly: Bool
    /// The path it goes to, and below.
    public let path: String
    /// Whether it goes over https only.
    public let isSecure: Bool
    /// `HttpOnly`.
    public let isHTTPOnly: Bool
    /// When it expires; `nil` for a session cookie, kept until the jar is gone.
    public let expiresAt: Date?
    /// When it was first stored: among cookies of equal path length, older ones are sent first.
    public let createdAt: Date

    /// The cookie `setCookie` makes when received from `url` at `now`; `nil` when RFC 6265 says to ignore it.
    ///
    /// Ignored: a `Domain` that does not cover the request's host (another site, or a sibling), a `Domain` with
    /// no dot (a bare top-level domain such as `com`) unless it is the host itself, a `Domain` on a request to an IP
    /// address unless it is that address, and a `Secure` cookie received over plain http.
    ///
    /// - Parameters:
    ///   - setCookie: The parsed header.
    ///   - url: The URL of the request that got it.
    ///   - now: The current date, from the injected clock.
    public init?(_ setCookie: SetCookie, from url: URL, at now: Date) {
        guard let parts = Self.parts(of: url) else { return nil }
        if setCookie.isSecure && parts.scheme != "https" { return nil }
        if let attribute = setCookie.domain, attribute.contains(".") {
            guard Self.domainMatches(host: parts.host, domain: attribute) else { return nil }
            domain = attribute
            isHostOnly = false
        } else if let attribute = setCookie.domain {
            // Public-suffix-naive: a name without a dot is a top-level domain, allowed only as the host itself.
            guard attribute == parts.host else { return nil }
            domain = parts.host
            isHostOnly = true
        } else {
            domain = parts.host
            isHostOnly = true
        }
        name = setCookie.name
        value = setCookie.value
        path = setCookie.path ?? Self.defaultPath(parts.path)
        isSecure = setCookie.isSecure
        isHTTPOnly = setCookie.isHTTPOnly
        if let maxAge = setCookie.maxAge {
            expiresAt = maxAge <= 0 ? .distantPast : now.addingTimeInterval(TimeInterval(maxAge))
        } else {
            expiresAt = setCookie.expires
        }
        createdAt = now
    }

    private init(copying cookie: Cookie, createdAt: Date) {
        name = cookie.name
        value = cookie.value
        domain = cookie.domain
        isHostOnly = cookie.isHostOnly
        path = cookie.path
        isSecure = cookie.isSecure
        isHTTPOnly = cookie.isHTTPOnly
        expiresAt = cookie.expiresAt
        self.createdAt = createdAt
    }

    /// This cookie with the creation date of the one it replaces (RFC 6265 §5.3 step 11).
    ///
    /// - Parameter date: The replaced cookie's creation date.
    /// - Returns: The cookie, created at `date`.
    public func created(at date: Date) -> Cookie { Cookie(copying: self, createdAt: date) }

    /// Whether it has expired at `now`.
    ///
    /// - Parameter now: The current date.
    /// - Returns: `true` once ``expiresAt`` is not later than `now`.
    public func isExpired(at now: Date) -> Bool { expiresAt.map { $0 <= now } ?? false }

    /// Whether it replaces `other`: same name, domain and path.
    ///
    /// - Parameter other: A stored cookie.
    /// - Returns: `true` when a jar must keep only one of them.
    public func replaces(_ other: Cookie) -> Bool {
        name == other.name && domain == other.domain && path == other.path
    }

    /// Whether it goes with a request to `url`: host (exactly when host-only, else the domain or a subdomain),
    /// path (the same or below) and scheme (https only when secure).
    ///
    /// - Parameter url: The request's URL.
    /// - Returns: `true` when the cookie belongs in its `Cookie` header.
    public func matches(_ url: URL) -> Bool {
        guard let parts = Self.parts(of: url) else { return false }
        if isSecure && parts.scheme != "https" { return false }
        let hostOK = isHostOnly ? parts.host == domain : Self.domainMatches(host: parts.host, domain: domain)
        return hostOK && Self.pathMatches(requestPath: parts.path, cookiePath: path)
    }

    // MARK: RFC 6265 §5.1 rules

    /// Scheme, lower-cased host, and the percent-encoded path (`/` when empty); `nil` without a host.
    static func parts(of url: URL) -> (scheme: String, host: String, path: String)? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let host = components.host, !host.isEmpty
        else { return nil }
        let path = components.percentEncodedPath
        return (
            HTTPToken.lowercasedASCII(components.scheme ?? ""), HTTPToken.lowercasedASCII(host),
            path.isEmpty ? "/" : path
        )
    }

    /// §5.1.3: identical, or `host` ends with `.domain` and is a name, not an IP address.
    static func domainMatches(host: String, domain: String) -> Bool {
        if host == domain { return true }
        guard host.hasSuffix("." + domain) else { return false }
        return !isIPAddress(host)
    }

    private static func isIPAddress(_ host: String) -> Bool {
        host.contains(":") || host.allSatisfy { $0 == "." || $0.isASCII && $0.isNumber }
    }

    /// §5.1.4: the directory of the request path: `/` for `/` or `/x`, `/a/b` for `/a/b/c`.
    static func defaultPath(_ path: String) -> String {
        guard path.hasPrefix("/"), let last = path.lastIndex(of: "/"), last != path.startIndex else { return "/" }
        return String(path[..<last])
    }

    /// §5.1.4: the same path, or a prefix ending in `/`, or a prefix followed by `/`.
    static func pathMatches(requestPath: String, cookiePath: String) -> Bool {
        if requestPath == cookiePath { return true }
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return cookiePath.hasSuffix("/") || requestPath.dropFirst(cookiePath.count).hasPrefix("/")
    }
}
