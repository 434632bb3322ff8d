import Foundation
import NetworkingHTTP
import NetworkingCore

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
    /// `HttpOnly`: an HTTP client is an HTTP API, so it stores and sends such a cookie like any other.
    public let isHTTPOnly: Bool
    /// `SameSite` (RFC 6265bis): stored, without effect on where an HTTP client sends it.
    public let sameSite: CookieSameSite
    /// When it expires; `nil` for a session cookie, kept until the jar is gone.
    public let expiresAt: Date?
    /// When it was first stored: among cookies of equal path length, older ones are sent first.
    public let createdAt: Date

    /// The cookie `setCookie` makes when received from `url` at `now` (RFC 6265 §5.3); `nil` when it must be
    /// ignored.
    ///
    /// Ignored:
    /// - a `Domain` that `url`'s host does not domain-match (another site, a sibling, a subdomain of the host, or
    ///   an IP address other than the host), or that is not ASCII (RFC 6265bis §5.7 step 8);
    /// - a `Domain` that is a public suffix, unless it is the host itself (the cookie is then host-only): without a
    ///   public suffix list, a name without a dot (`com`, `localhost`) is taken for one (§5.3 step 5);
    /// - a `Secure` cookie received over plain http (RFC 6265bis §5.7 step 13);
    /// - a name starting with `__Secure-` (any case) without `Secure`, or with `__Host-` (any case) without
    ///   `Secure`, with a `Domain` attribute, or without `Path=/` (RFC 6265bis §5.7 steps 20-21).
    ///
    /// - Parameters:
    ///   - setCookie: The parsed header.
    ///   - url: The URL of the request that got it.
    ///   - now: The current date, from the injected clock.
    public init?(_ setCookie: SetCookie, from url: URL, at now: Date) {
        guard let target = CookieMatching.target(of: url) else { return nil }
        var domainAttribute = setCookie.domain ?? ""
        guard domainAttribute.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        if !domainAttribute.isEmpty, !domainAttribute.utf8.contains(UInt8(ascii: ".")) {
            guard domainAttribute.utf8.elementsEqual(target.host.utf8) else { return nil }
            domainAttribute = ""
        }
        if domainAttribute.isEmpty {
            domain = target.host
            isHostOnly = true
        } else {
            guard CookieMatching.domainMatches(host: target.host, domain: domainAttribute) else { return nil }
            domain = domainAttribute
            isHostOnly = false
        }
        name = setCookie.name
        value = setCookie.value
        if let attribute = setCookie.path, attribute.utf8.first == UInt8(ascii: "/") {
            path = attribute
        } else {
            path = CookieMatching.defaultPath(target.path)
        }
        isSecure = setCookie.isSecure
        guard !isSecure || target.isSecure else { return nil }
        isHTTPOnly = setCookie.isHTTPOnly
        sameSite = setCookie.sameSite
        if FieldSyntax.hasPrefixIgnoringCase(name, "__secure-"), !isSecure { return nil }
        if FieldSyntax.hasPrefixIgnoringCase(name, "__host-"),
            !isSecure || !isHostOnly || setCookie.path == nil || !FieldSyntax.equals(path, "/")
        {
            return nil
        }
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
        sameSite = cookie.sameSite
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

    /// Whether it replaces `other` (RFC 6265 §5.3 step 11): the same name, domain and path, octet for octet,
    /// whatever their host-only flags.
    ///
    /// - Parameter other: A stored cookie.
    /// - Returns: `true` when a jar must keep only one of them.
    public func replaces(_ other: Cookie) -> Bool {
        name.utf8.elementsEqual(other.name.utf8) && domain.utf8.elementsEqual(other.domain.utf8)
            && path.utf8.elementsEqual(other.path.utf8)
    }

    /// Whether it goes with a request to `url` (RFC 6265 §5.4 step 1): host (identical when host-only, else
    /// domain-matching), path (path-matching) and scheme (https only when secure). `HttpOnly` cookies go too.
    ///
    /// - Parameter url: The request's URL.
    /// - Returns: `true` when the cookie belongs in its `Cookie` header.
    public func matches(_ url: URL) -> Bool {
        guard let target = CookieMatching.target(of: url) else { return false }
        if isSecure && !target.isSecure { return false }
        let hostOK =
            isHostOnly
            ? target.host.utf8.elementsEqual(domain.utf8)
            : CookieMatching.domainMatches(host: target.host, domain: domain)
        return hostOK && CookieMatching.pathMatches(requestPath: target.path, cookiePath: path)
    }
}
