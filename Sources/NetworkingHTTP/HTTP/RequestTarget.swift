import Foundation

/// The scheme, authority and path of a request, taken apart from a URL, and the rules each must meet.
package struct RequestTarget {
    package let scheme: String
    package let authority: String
    package let path: String

    /// The parts of an absolute `http`/`https` URL without user info; `nil` otherwise (``problem(in:)`` says why).
    package init?(_ url: URL) {
        guard let scheme = url.scheme, let host = url.host(percentEncoded: true), !host.isEmpty,
            url.user == nil, url.password == nil
        else { return nil }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        self.scheme = scheme
        self.authority = url.port.map { "\(bracketed):\($0)" } ?? bracketed
        let path = url.path(percentEncoded: true)
        self.path = (path.isEmpty ? "/" : path) + (url.query(percentEncoded: true).map { "?\($0)" } ?? "")
    }

    /// Why `url` cannot be a request's target.
    package static func problem(in url: URL) -> String {
        if url.user != nil || url.password != nil {
            return "the URL carries a user name or password; send credentials with a behavior such as "
                + ".basicAuthorization(user:password:) instead"
        }
        guard let scheme = url.scheme, !scheme.isEmpty else {
            return "the URL is not absolute (no http or https scheme)"
        }
        let lowered = HTTPToken.lowercasedASCII(scheme)
        guard lowered == "http" || lowered == "https" else {
            return
                "the scheme \"\(DisplayText.escapingControlCharacters(scheme))\" is not supported; only http and https are"
        }
        return url.host(percentEncoded: true)?.isEmpty == false
            ? "the URL \(url.displayString) cannot be a request target" : "the URL has no host"
    }

    /// Why `authority` cannot be sent, or `nil`.
    package static func problem(inAuthority authority: String) -> String? {
        guard !authority.isEmpty else { return "the URL has no host" }
        var text = authority
        return text.withUTF8 { bytes -> String? in
            if bytes.contains(UInt8(ascii: "@")) {
                return "the authority carries a user name or password; send credentials with a behavior instead"
            }
            guard bytes.allSatisfy({ ASCIISet.authority.contains($0) }) else {
                return "the authority \"\(DisplayText.escapingControlCharacters(authority))\" is not a host and port"
            }
            // The port is what follows the last colon outside an IPv6 literal's brackets.
            let closing = bytes.lastIndex(of: UInt8(ascii: "]")) ?? -1
            guard let colon = bytes.lastIndex(of: UInt8(ascii: ":")), colon > closing else { return nil }
            let digits = bytes[(colon + 1)...]
            guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                let port = Int(String(decoding: digits, as: UTF8.self)), (1...65535).contains(port)
            else {
                return "the port \"\(String(decoding: digits, as: UTF8.self))\" is out of range 1-65535"
            }
            return colon == 0 ? "the URL has no host" : nil
        }
    }

    /// Why `path` cannot be sent, or `nil`.
    package static func problem(inPath path: String) -> String? {
        var text = path
        return text.withUTF8 { bytes -> String? in
            guard bytes.first == UInt8(ascii: "/") else {
                return "the path \"\(DisplayText.escapingControlCharacters(path))\" does not start with /"
            }
            for byte in bytes where !ASCIISet.target.contains(byte) {
                if byte < 0x20 || byte == 0x7F {
                    return "the path contains a control character (CR, LF, NUL or similar)"
                }
                return
                    "the path contains \(byte == 0x23 ? "a fragment (#)" : "a character that must be percent-encoded")"
            }
            return nil
        }
    }
}
