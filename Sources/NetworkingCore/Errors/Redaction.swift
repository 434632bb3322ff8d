import Foundation
import NetworkingHTTP

/// Which header values and query values must never reach a log or a cURL command, shared by
/// `LoggingBehavior` and `CurlRenderer`.
///
/// Redacted values are written as ``placeholder`` (`<redacted>`). The defaults cannot be turned off, only added
/// to, so a configuration mistake can only redact more:
/// - headers ``defaultHeaderNames``: `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`, and every
///   field marked sensitive (`HTTPField/isSensitive`), such as the custom header of `.authorization`;
/// - query parameters ``defaultQueryParameterNames``: `access_token`, `api_key`, `apikey`, `client_secret`,
///   `password`, `token` (also applied to `application/x-www-form-urlencoded` bodies);
/// - always: the user and password of a URL (`user:password@host`) are dropped, never shown.
///
/// Names compare case-insensitively. As a second line of defence, renderers also replace every occurrence of a
/// redacted value (4 characters or more) anywhere else in their output, such as in an error message or a body.
/// ```swift
/// let redaction = Redaction(headerNames: ["X-API-Key"], queryParameterNames: ["signature"])
/// ```
public struct Redaction: Sendable, Hashable {
    /// What replaces a redacted value.
    public static let placeholder = "<redacted>"

    /// Headers always redacted: they carry credentials (`Authorization`, `Proxy-Authorization`) or sessions
    /// (`Cookie` on requests, `Set-Cookie` on responses).
    public static let defaultHeaderNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie",
    ]

    /// Query parameters always redacted: the names APIs commonly use for credentials passed in URLs.
    public static let defaultQueryParameterNames: Set<String> = [
        "access_token", "api_key", "apikey", "client_secret", "password", "token",
    ]

    /// The defaults alone.
    public static let `default` = Redaction()

    /// Lower-cased names of redacted headers, the defaults included.
    public let headerNames: Set<String>
    /// Lower-cased names of redacted query parameters, the defaults included.
    public let queryParameterNames: Set<String>

    /// Creates a policy redacting the defaults plus the given names.
    ///
    /// - Parameters:
    ///   - headerNames: Further headers to redact, such as a custom API-key header. Case does not matter.
    ///   - queryParameterNames: Further query parameters to redact. Case does not matter.
    public init(headerNames: Set<String> = [], queryParameterNames: Set<String> = []) {
        self.headerNames = Self.defaultHeaderNames.union(headerNames.map(HTTPToken.lowercasedASCII))
        self.queryParameterNames = Self.defaultQueryParameterNames.union(
            queryParameterNames.map(HTTPToken.lowercasedASCII))
    }

    /// Whether the value of header `name` is redacted by name.
    ///
    /// - Parameter name: A header name, in any case.
    /// - Returns: `true` when the value must not be shown.
    public func redactsHeader(_ name: String) -> Bool {
        headerNames.contains(HTTPToken.lowercasedASCII(name))
    }

    /// Whether the value of `field` is redacted: by its name, or because it is marked sensitive.
    ///
    /// - Parameter field: A header field.
    /// - Returns: `true` when the value must not be shown.
    public func redacts(_ field: HTTPField) -> Bool {
        field.isSensitive || headerNames.contains(field.name.canonicalName)
    }

    /// The value to show for header `name`: ``placeholder`` for a redacted header, else `value`.
    ///
    /// - Parameters:
    ///   - value: The header's value.
    ///   - name: The header's name.
    /// - Returns: The value or the placeholder.
    public func displayValue(_ value: String, forHeader name: String) -> String {
        redactsHeader(name) ? Self.placeholder : value
    }

    /// `url` for display: without user and password or fragment, with redacted query values replaced.
    ///
    /// - Parameter url: The URL.
    /// - Returns: The text to show; `<unparseable URL>` when the URL cannot be taken apart safely.
    public func displayString(for url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            return "<unparseable URL>"
        }
        let query = components.percentEncodedQuery
        components.user = nil
        components.password = nil
        components.percentEncodedQuery = nil
        components.percentEncodedFragment = nil
        guard var text = components.string else { return "<unparseable URL>" }
        if let query { text += "?" + redactedQuery(query) }
        return text
    }

    /// The target of `request` for display: `scheme://authority/path?query`, with redacted query values replaced.
    ///
    /// - Parameter request: The request.
    /// - Returns: The text to show.
    public func displayTarget(of request: HTTPRequest) -> String {
        let path = request.path
        let (bare, query) = FieldSyntax.cut(path, at: UInt8(ascii: "?"))
        guard let query else { return "\(request.scheme)://\(request.authority)\(path)" }
        return "\(request.scheme)://\(request.authority)\(bare)?\(redactedQuery(String(query)))"
    }

    /// A percent-encoded query (or form body) with the values of redacted parameters replaced.
    package func redactedQuery(_ query: String) -> String {
        FieldSyntax.split(query, separator: UInt8(ascii: "&")).map { pair -> String in
            let (name, value) = FieldSyntax.cut(pair, at: UInt8(ascii: "="))
            guard value != nil, redactsQueryParameter(name) else { return String(pair) }
            return "\(name)=\(Self.placeholder)"
        }
        .joined(separator: "&")
    }

    /// Whether the query parameter of the percent-encoded `name` is redacted (its decoded name, ASCII case ignored).
    private func redactsQueryParameter(_ name: Substring) -> Bool {
        let decoded = name.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(name)
        return queryParameterNames.contains(HTTPToken.lowercasedASCII(decoded))
    }

    /// `body` as text for display: form bodies get their redacted fields replaced; other bodies are unchanged.
    package func displayBody(_ body: Data, contentType: String?) -> Data {
        guard FieldSyntax.isMediaType(contentType, "application/x-www-form-urlencoded"),
            let text = String(data: body, encoding: .utf8)
        else { return body }
        return Data(redactedQuery(text).utf8)
    }

    /// Every redacted value in `request`, in the forms it may appear elsewhere: header values, their credential part
    /// after the scheme, each cookie's value, and query values raw and decoded. Values under 4 characters are left
    /// out so that scrubbing cannot mangle ordinary text.
    package func secrets(in request: HTTPRequest) -> [String] {
        var found: [String] = []
        for field in request.headerFields where redacts(field) {
            found.append(field.value)
            if let credential = FieldSyntax.cut(field.value, at: UInt8(ascii: " ")).1 {
                found.append(String(credential))
            }
            if field.name.canonicalName == "cookie" {
                // RFC 6265 §4.2.1: `name=value` pairs cut at the byte `;` (U+037E, which Swift takes for `;`, is
                // part of a value: cut there, the value would be found only in pieces, and shown whole elsewhere).
                for pair in FieldSyntax.split(field.value, separator: UInt8(ascii: ";")) {
                    guard let value = FieldSyntax.cut(pair, at: UInt8(ascii: "=")).1 else { continue }
                    found.append(String(FieldSyntax.trimmed(value)))
                }
            }
        }
        if let query = FieldSyntax.cut(request.path, at: UInt8(ascii: "?")).1 {
            for pair in FieldSyntax.split(query, separator: UInt8(ascii: "&"), omittingEmpty: true) {
                let (name, rawValue) = FieldSyntax.cut(pair, at: UInt8(ascii: "="))
                guard let value = rawValue, redactsQueryParameter(name) else { continue }
                found.append(String(value))
                if let decoded = value.replacingOccurrences(of: "+", with: " ").removingPercentEncoding {
                    found.append(decoded)
                }
            }
        }
        guard !found.isEmpty else { return [] }
        return Self.longestFirst(found.filter { $0.count >= 4 })
    }

    /// The secrets of `request` and of `sent`, the same request as it left after every behavior (which may have added
    /// credentials, cookies or sensitive fields a behavior further out never saw), longest first.
    ///
    /// - Parameters:
    ///   - request: The request as a behavior saw it.
    ///   - sent: The request as sent, when known.
    /// - Returns: Every value to hide, each once.
    package func secrets(in request: HTTPRequest, sent: HTTPRequest?) -> [String] {
        let own = secrets(in: request)
        guard let sent else { return own }
        let added = secrets(in: sent)
        guard !added.isEmpty else { return own }
        return Self.longestFirst(own + added)
    }

    /// `secrets` each once and longest first, by their bytes: a `Set` of strings would take `abc;d` and
    /// `abc\u{37E}d` for one (canonical equivalence) and keep only one of the two to hide.
    private static func longestFirst(_ secrets: [String]) -> [String] {
        var seen = Set<[UInt8]>()
        return secrets.filter { seen.insert(Array($0.utf8)).inserted }.sorted { $0.utf8.count > $1.utf8.count }
    }

    /// The first `limit` bytes of `body` as text, each secret that begins in them replaced whole by the
    /// placeholder, even one the cut would split (cutting first and scrubbing after would show its head).
    ///
    /// - Parameters:
    ///   - body: The bytes to show.
    ///   - limit: How many bytes of `body` to show at most.
    ///   - secrets: The values to hide, longest first (as ``secrets(in:)`` returns them).
    package static func scrubbedPrefix(of body: Data, limit: Int, secrets: [String]) -> String {
        let limit = max(limit, 0)
        guard !secrets.isEmpty else { return String(decoding: body.prefix(limit), as: UTF8.self) }
        // Bytes, not characters: a secret followed by a combining mark is still found.
        let patterns = secrets.map { Array($0.utf8) }.filter { !$0.isEmpty }
        let reach = patterns.map(\.count).max() ?? 0
        let window = [UInt8](body.prefix(limit + reach))
        return String(decoding: replacing(patterns, in: window, upTo: min(limit, window.count)), as: UTF8.self)
    }

    /// The first `end` bytes of `bytes`, each of `patterns` that starts among them replaced whole by the placeholder
    /// (the first that matches, so longest first). UTF-8 is self-synchronizing: a pattern of valid UTF-8 can only
    /// match at the start of a character's bytes.
    private static func replacing(_ patterns: [[UInt8]], in bytes: [UInt8], upTo end: Int) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(end)
        var index = 0
        while index < end {
            if let secret = patterns.first(where: {
                index + $0.count <= bytes.count && bytes[index..<index + $0.count].elementsEqual($0)
            }) {
                result.append(contentsOf: placeholder.utf8)
                index += secret.count
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }

    /// `text` with every occurrence of each secret replaced by the placeholder, longest secrets first, found by
    /// their bytes: a search by characters misses a secret followed by a combining mark (`abcd\u{301}` holds no
    /// character `d`).
    package static func scrub(_ text: String, secrets: [String]) -> String {
        let patterns = secrets.map { Array($0.utf8) }.filter { !$0.isEmpty }
        guard !patterns.isEmpty else { return text }
        let bytes = Array(text.utf8)
        let result = replacing(patterns, in: bytes, upTo: bytes.count)
        return String(decoding: result, as: UTF8.self)
    }
}
