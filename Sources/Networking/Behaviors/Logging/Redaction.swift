import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Which header values and query values must never reach a log or a cURL command, shared by
/// ``LoggingBehavior`` and ``CURLRenderer``.
///
/// Redacted values are written as ``placeholder`` (`<redacted>`). The defaults cannot be turned off, only added
/// to, so a configuration mistake can only redact more:
/// - headers ``defaultHeaderNames``: `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`;
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

    /// Whether the value of header `name` is redacted.
    ///
    /// - Parameter name: A header name, in any case.
    /// - Returns: `true` when the value must not be shown.
    public func redactsHeader(_ name: String) -> Bool {
        headerNames.contains(name.lowercased())
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

    /// A percent-encoded query (or form body) with the values of redacted parameters replaced.
    func redactedQuery(_ query: String) -> String {
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
    func displayBody(_ body: Data, contentType: String?) -> Data {
        guard let contentType, contentType.lowercased().hasPrefix("application/x-www-form-urlencoded"),
            let text = String(data: body, encoding: .utf8)
        else { return body }
        return Data(redactedQuery(text).utf8)
    }

    /// Every redacted value in `request`, in the forms it may appear elsewhere: header values and their credential
    /// part, query values raw and decoded, and the URL's user and password. Values under 4 characters are left out
    /// so that scrubbing cannot mangle ordinary text.
    func secrets(in request: URLRequest) -> [String] {
        var found: [String] = []
        for (name, value) in request.allHTTPHeaderFields ?? [:] where redactsHeader(name) {
            found.append(value)
            if let space = value.firstIndex(of: " ") { found.append(String(value[value.index(after: space)...])) }
        }
        if let url = request.url, let components = URLComponents(url: url, resolvingAgainstBaseURL: true) {
            found += [
                components.user, components.password, components.percentEncodedUser, components.percentEncodedPassword,
            ]
            .compactMap { $0 }
            for pair in (components.percentEncodedQuery ?? "").split(separator: "&") {
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
        return Array(Set(found.filter { $0.count >= 4 })).sorted { $0.count > $1.count }
    }

    /// `text` with every occurrence of each secret replaced by the placeholder, longest secrets first.
    static func scrub(_ text: String, secrets: [String]) -> String {
        secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: placeholder) }
    }
}
