import Foundation

/// Builds and checks the URL of a request. Every rule here runs before any I/O.
enum URLBuilder {
    /// The absolute URL for `endpoint` and `query`, or a reason why there is none.
    static func url<R>(for endpoint: NetworkRequest<R>.Endpoint, query: [URLQueryItem], baseURL: URL?) throws(Refusal)
        -> URL
    {
        var components: URLComponents
        switch endpoint {
        case .url(let url):
            guard let parsed = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
                throw Refusal("the URL \(url.displayString) cannot be parsed")
            }
            components = parsed
        case .path(let path):
            guard let baseURL else {
                throw Refusal("the path \"\(path)\" is relative but the client has no base URL")
            }
            try rejectControlCharacters(in: path, what: "path")
            var base = baseURL.absoluteString
            while base.hasSuffix("/") { base.removeLast() }
            let joined = base + (path.hasPrefix("/") || path.isEmpty ? "" : "/") + escapePath(path)
            guard let parsed = URLComponents(string: joined) else {
                throw Refusal("the path \"\(path)\" does not form a valid URL with the base URL")
            }
            components = parsed
        }
        components.fragment = nil
        try check(components)
        if !query.isEmpty {
            let encoded = query.map { item in
                FormEncoding.escape(item.name).replacingOccurrences(of: "+", with: "%20")
                    + (item.value.map { "=" + FormEncoding.escape($0).replacingOccurrences(of: "+", with: "%20") } ?? "")
            }.joined(separator: "&")
            let existing = components.percentEncodedQuery.map { $0.isEmpty ? "" : $0 + "&" } ?? ""
            components.percentEncodedQuery = existing + encoded
        }
        guard let url = components.url else {
            throw Refusal("the URL cannot be assembled from its parts")
        }
        return url
    }

    /// The scheme, host and port rules every URL must meet.
    private static func check(_ components: URLComponents) throws(Refusal) {
        let scheme = components.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else {
            throw Refusal(
                scheme.isEmpty
                    ? "the URL is not absolute (no http or https scheme)"
                    : "the scheme \"\(scheme)\" is not supported; only http and https are")
        }
        guard let host = components.host, !host.isEmpty else {
            throw Refusal("the URL has no host")
        }
        if let port = components.port, !(1...65535).contains(port) {
            throw Refusal("the port \(port) is out of range 1-65535")
        }
    }

    /// Refuses CR, LF, NUL and other control characters, which would let a value split the request line.
    static func rejectControlCharacters(in text: String, what: String) throws(Refusal) {
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw Refusal("the \(what) contains a control character (CR, LF, NUL or similar)")
        }
    }

    /// Escapes characters a path may not carry raw (spaces, quotes, `<>`), keeping valid `%XX` escapes as given and
    /// writing a stray `%` as `%25`.
    static func escapePath(_ path: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/?".utf8)
        let bytes = Array(path.utf8)
        var out = ""
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) {
                out += String(decoding: bytes[index...index + 2], as: UTF8.self)
                index += 3
                continue
            }
            if allowed.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += FormEncoding.percentEscape(byte)
            }
            index += 1
        }
        return out
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    /// Why a request was refused before I/O.
    struct Refusal: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
