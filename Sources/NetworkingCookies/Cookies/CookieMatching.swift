import Foundation
import NetworkingHTTP
import NetworkingCore

/// The matching rules of RFC 6265 §5.1.2-§5.1.4 as pure functions over octets (never Unicode-equivalent text):
/// the request's canonical host and path, domain-match, default-path and path-match.
enum CookieMatching {
    /// The parts of a request URL the cookie rules read.
    struct Target: Equatable {
        /// The scheme, lower-cased.
        var scheme: String
        /// The host, lower-cased (§5.1.2; names are not converted to A-labels: the URL gives them as they are).
        var host: String
        /// The path, percent-encoded as sent, `/` when empty; no query.
        var path: String

        /// Whether the scheme denotes a "secure" protocol (§5.4 step 1, §8.6): `https` only.
        var isSecure: Bool { scheme == "https" }
    }

    /// The target of `url`; `nil` without a host.
    static func target(of url: URL) -> Target? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let host = components.host, !host.isEmpty
        else { return nil }
        let path = components.percentEncodedPath
        return Target(
            scheme: HTTPToken.lowercasedASCII(components.scheme ?? ""), host: HTTPToken.lowercasedASCII(host),
            path: path.isEmpty ? "/" : path)
    }

    /// §5.1.3: `host` domain-matches `domain` when they are identical, or when `domain` is a suffix of `host`, the
    /// character before it is `.`, and `host` is a host name, not an IP address.
    static func domainMatches(host: String, domain: String) -> Bool {
        if host.utf8.elementsEqual(domain.utf8) { return true }
        let hostBytes = Array(host.utf8)
        let domainBytes = Array(domain.utf8)
        guard !domainBytes.isEmpty, hostBytes.count > domainBytes.count,
            hostBytes.suffix(domainBytes.count).elementsEqual(domainBytes),
            hostBytes[hostBytes.count - domainBytes.count - 1] == UInt8(ascii: ".")
        else { return false }
        return !isIPAddress(host)
    }

    /// Whether `host` is an IP address: IPv6 (it has a colon, with or without brackets) or IPv4 (digits and dots).
    static func isIPAddress(_ host: String) -> Bool {
        host.utf8.contains(UInt8(ascii: ":"))
            || host.utf8.allSatisfy { $0 == UInt8(ascii: ".") || ($0 >= 0x30 && $0 <= 0x39) }
    }

    /// §5.1.4 default-path: `/` unless the path starts with `/` and has a second `/`; then everything before its
    /// last `/` (`/a/b` for `/a/b/c`, `/` for `/x`).
    static func defaultPath(_ path: String) -> String {
        let bytes = Array(path.utf8)
        guard bytes.first == UInt8(ascii: "/"), let last = bytes.lastIndex(of: UInt8(ascii: "/")), last > 0 else {
            return "/"
        }
        return String(decoding: bytes[..<last], as: UTF8.self)
    }

    /// §5.1.4 path-match: the same octets, or `cookiePath` a prefix of `requestPath` that ends with `/` or is
    /// followed by `/` in it.
    static func pathMatches(requestPath: String, cookiePath: String) -> Bool {
        let request = Array(requestPath.utf8)
        let cookie = Array(cookiePath.utf8)
        guard request.count >= cookie.count, request.prefix(cookie.count).elementsEqual(cookie) else { return false }
        return request.count == cookie.count || cookie.last == UInt8(ascii: "/")
            || request[cookie.count] == UInt8(ascii: "/")
    }

}
