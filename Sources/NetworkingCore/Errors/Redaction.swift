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
        self.headerNames = Self.defaultHeaderNames.union(headerNames.map { $0.lowercased() })
        self.queryParameterNames = Self.defaultQueryParameterNames.union(queryParameterNames.map { $0.lowercased() })
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
        guard let mark = path.firstIndex(of: "?") else { return "\(request.scheme)://\(request.authority)\(path)" }
        let query = path[path.index(after: mark)...]
        return "\(request.scheme)://\(request.authority)\(path[..<mark])?\(redactedQuery(String(query)))"
    }

    /// A percent-encoded query (or form body) with the values of redacted parameters replaced.
    package func redactedQuery(_ query: String) -> String {
        query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = pair[..<equals]
            let decoded = name.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(name)
            guard queryParameterNames.contains(decoded.lowercased()) else { return String(pair) }
            return "\(name)=\(Self.placeholder)"
        }
        .joined(separator: "&")
    }

    /// `body` as text for display: form bodies get their redacted fields replaced; other bodies are unchanged.
    package func displayBody(_ body: Data, contentType: String?) -> Data {
        guard let contentType, contentType.lowercased().hasPrefix("application/x-www-form-urlencoded"),
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
            if let space = field.value.firstIndex(of: " ") {
                found.append(String(field.value[field.value.index(after: space)...]))
            }
            if field.name.canonicalName == "cookie" {
                for pair in field.value.split(separator: ";") {
                    guard let equals = pair.firstIndex(of: "=") else { continue }
                    found.append(String(pair[pair.index(after: equals)...]).trimmingCharacters(in: .whitespaces))
                }
            }
        }
        let path = request.path
        if let mark = path.firstIndex(of: "?") {
            for pair in path[path.index(after: mark)...].split(separator: "&") {
                guard let equals = pair.firstIndex(of: "=") else { continue }
                let name = pair[..<equals].replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
                guard queryParameterNames.contains(name.lowercased()) else { continue }
                let value = pair[pair.index(after: equals)...]
                found.append(String(value))
                if let decoded = value.replacingOccurrences(of: "+", with: " ").removingPercentEncoding {
                    found.append(decoded)
                }
            }
        }
        guard !found.isEmpty else { return [] }
        return Array(Set(found.filter { $0.count >= 4 })).sorted { $0.count > $1.count }
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
        return Array(Set(own).union(added)).sorted { $0.count > $1.count }
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
        let shown = min(limit, window.count)
        var result: [UInt8] = []
        result.reserveCapacity(shown)
        var index = 0
        while index < shown {
            if let secret = patterns.first(where: {
                index + $0.count <= window.count && window[index..<index + $0.count].elementsEqual($0)
            }) {
                result.append(contentsOf: placeholder.utf8)
                index += secret.count
            } else {
                result.append(window[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// `text` with every occurrence of each secret replaced by the placeholder, longest secrets first.
    package static func scrub(_ text: String, secrets: [String]) -> String {
        guard !secrets.isEmpty else { return text }
        return secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: placeholder) }
    }
}
