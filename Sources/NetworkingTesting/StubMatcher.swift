import Foundation
import NetworkingHTTP
import NetworkingCore

/// Which requests a stub of ``MockTransport`` answers: a method, a path pattern and optional query items.
///
/// Path rules, checked segment by segment:
/// - the pattern matches the end of the request's path, so `/users/1` matches `https://api.test/v1/users/1`
///   whatever the base URL's path is, but never `/admin-users/1` (segments compare whole);
/// - a `*` segment matches any one segment: `/users/*` matches `/users/1` and `/users/ada`;
/// - `/` matches only a request for the root path.
///
/// Query rule: every item of `query` must be present in the request with that value; other items are allowed.
///
/// When several stubs match, the most specific wins: more query items first, then more literal path segments,
/// then the stub added last.
public struct StubMatcher: Sendable, Hashable, CustomStringConvertible {
    /// The method to match; `nil` matches any method.
    public var method: HTTPMethod?
    /// The path pattern, such as `/users/*`.
    public var path: String
    /// Query items the request must carry, with these values.
    public var query: [String: String]

    /// Creates a matcher.
    ///
    /// - Parameters:
    ///   - method: The method to match; `nil` for any.
    ///   - path: The path pattern (suffix match by whole segments; `*` matches one segment).
    ///   - query: Query items the request must carry.
    public init(method: HTTPMethod?, path: String, query: [String: String] = [:]) {
        self.method = method
        self.path = path
        self.query = query
    }

    /// Whether `request` is one this matcher answers.
    ///
    /// - Parameter request: The request that reached the transport.
    /// - Returns: `true` when method, path and query all match.
    public func matches(_ request: RecordedRequest) -> Bool {
        if let method, method.rawValue.uppercased() != request.method.rawValue.uppercased() { return false }
        guard PathPattern(path).matchesEnd(of: PathPattern.segments(of: request.request.path)) else { return false }
        let sent = request.query
        return query.allSatisfy { sent[$0.key] == $0.value }
    }

    /// Orders matches: more query items, then more literal segments, is more specific.
    package var specificity: Int {
        query.count * 1_000 + PathPattern(path).literalSegmentCount
    }

    /// `GET /users/* ?page=2`, for failure messages.
    public var description: String {
        let verb = method?.rawValue ?? "ANY"
        let items = query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
        return "\(verb) \(path)" + (items.isEmpty ? "" : "?\(items)")
    }
}
