import NetworkingHTTP
import NetworkingCore

/// A path pattern for test doubles and fixtures: whole segments compared after percent-decoding, `*` matching any
/// one segment, the query ignored.
///
/// One type for both users of patterns, which anchor them differently on purpose:
/// - `MockTransport`'s ``matchesEnd(of:)``: the pattern matches the end of the request's path, so a stub for
///   `/users/1` answers `https://api.test/v1/users/1` whatever the base URL's path is (never `/admin-users/1`:
///   segments compare whole). `/` matches only the root.
/// - `FixtureTransport`'s ``matches(_:)``: the pattern matches the whole path after the transport's base path.
package struct PathPattern: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written, such as `/users/*`.
    package let pattern: String
    /// Its segments, percent-decoded.
    package let segments: [String]

    /// Creates a pattern.
    ///
    /// - Parameter pattern: Such as `/users/*`; a query part is ignored.
    package init(_ pattern: String) {
        self.pattern = pattern
        self.segments = Self.segments(of: pattern)
    }

    /// Whether the pattern matches `path` (segments, as ``segments(of:)`` gives them) exactly.
    package func matches(_ path: [String]) -> Bool {
        path.count == segments.count && zip(segments, path).allSatisfy { $0 == "*" || $0 == $1 }
    }

    /// Whether the pattern matches the last segments of `path`; the root pattern matches only the root.
    package func matchesEnd(of path: [String]) -> Bool {
        if segments.isEmpty { return path.isEmpty }
        guard segments.count <= path.count else { return false }
        return zip(segments, path.suffix(segments.count)).allSatisfy { $0 == "*" || $0 == $1 }
    }

    /// How specific the pattern is: its literal segments.
    package var literalSegmentCount: Int { segments.filter { $0 != "*" }.count }

    /// The pattern as written.
    package var description: String { pattern }

    /// The segments of `path` without its query, percent-decoded; empty segments dropped.
    package static func segments(of path: String) -> [String] {
        let bare = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return bare.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
    }
}
