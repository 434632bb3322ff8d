import Foundation

/// Builds and checks the URL of a request. Every rule here runs before any I/O.
enum URLBuilder {
    /// A client's base URL, checked once: its text without trailing slashes, or why it cannot be used.
    struct Base: Sendable {
        let prepared: Result<String, Refusal>

        init(_ url: URL) {
            prepared = Result { () throws(Refusal) -> String in
                guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
                    throw Refusal("the base URL \(url.displayString) cannot be parsed")
                }
                try URLBuilder.check(components)
                guard components.percentEncodedQuery == nil else {
                    throw Refusal(
                        "the base URL \(url.displayString) has a query; paths are appended to it, so it cannot")
                }
                var text = url.absoluteString
                if let fragment = text.firstIndex(of: "#") { text = String(text[..<fragment]) }
                while text.hasSuffix("/") { text.removeLast() }
                return text
            }
        }
    }

    /// The absolute URL for `endpoint` and `query`, or a reason why there is none.
    static func url<R>(for endpoint: NetworkRequest<R>.Endpoint, query: [URLQueryItem], base: Base?) throws(Refusal)
        -> URL
    {
        switch endpoint {
        case .path(let path):
            guard let base else {
                throw Refusal("the path \"\(path)\" is relative but the client has no base URL")
            }
            let prefix = try base.prepared.get()
            try rejectControlCharacters(in: path, what: "path")
            try rejectDotSegments(in: path)
            // The base was checked once; appending a path cannot change its scheme, host or port, so one parse of
            // the finished text is all that is left to do.
            var text = prefix + (path.hasPrefix("/") || path.isEmpty ? "" : "/") + escapePath(path)
            if !query.isEmpty {
                text += (text.contains("?") ? (text.hasSuffix("?") || text.hasSuffix("&") ? "" : "&") : "?")
                text += encoded(query)
            }
            guard let url = URL(string: text) else {
                throw Refusal("the path \"\(path)\" does not form a valid URL with the base URL")
            }
            return url
        case .url(let url):
            guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
                throw Refusal("the URL \(url.displayString) cannot be parsed")
            }
            components.fragment = nil
            try check(components)
            if !query.isEmpty {
                let existing = components.percentEncodedQuery.map { $0.isEmpty ? "" : $0 + "&" } ?? ""
                components.percentEncodedQuery = existing + encoded(query)
            }
            guard let url = components.url else {
                throw Refusal("the URL cannot be assembled from its parts")
            }
            return url
        }
    }

    /// Query items percent-encoded so `+`, `&` and `=` in names and values survive (space as `%20`).
    private static func encoded(_ query: [URLQueryItem]) -> String {
        query.map { item in
            FormEncoding.escape(item.name).replacingOccurrences(of: "+", with: "%20")
                + (item.value.map { "=" + FormEncoding.escape($0).replacingOccurrences(of: "+", with: "%20") } ?? "")
        }.joined(separator: "&")
    }

    /// The scheme, host and port rules every URL must meet.
    static func check(_ components: URLComponents) throws(Refusal) {
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

    /// Refuses `.` and `..` segments (also percent-encoded): servers and libcurl resolve them, so a relative path
    /// could climb out of the base URL's path (`../../admin`).
    static func rejectDotSegments(in path: String) throws(Refusal) {
        let pathPart = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        for segment in pathPart.split(separator: "/") {
            let decoded = segment.lowercased().replacingOccurrences(of: "%2e", with: ".")
            if decoded == "." || decoded == ".." {
                throw Refusal(
                    "the path \"\(path)\" has a \"\(segment)\" segment, which would leave the base URL's path")
            }
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
        if path.utf8.allSatisfy({ pathBytes.contains($0) }) { return path }
        let allowed = pathBytes
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

    /// Bytes a path may carry as they are.
    private static let pathBytes = Set(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/?".utf8)

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
