import Foundation
import NetworkingHTTP
import NetworkingCore

/// The directives of `Cache-Control` fields (RFC 9111 §5.2) that a private cache acts on, read from every field of
/// a request or a response.
///
/// Parsing never fails and never traps: directive names are matched without regard to case; values may be tokens
/// or quoted strings; an unknown directive is ignored. When a directive repeats, the first occurrence wins
/// (§4.2.1). A `max-age` whose value is not a number (`max-age=soon`, `max-age=-1`, `max-age`) makes the response
/// stale: that is the safe reading of a value the server got wrong; a malformed `stale-while-revalidate` or
/// `stale-if-error` (RFC 5861), or a request's malformed `max-stale`, is ignored, which allows no stale response at
/// all; a request's malformed `min-fresh` is ignored. A number too large saturates at
/// 2,147,483,648 seconds, as §1.2.2 requires. Malformed text is reported through ``problems`` so the cache can log
/// it at debug level.
package struct CacheControl: Sendable, Hashable {
    /// The largest delta-seconds value (§1.2.2): 2^31.
    package static let maximumDeltaSeconds: Int64 = 2_147_483_648

    /// `no-store`.
    package var noStore = false
    /// `no-cache`, with or without a field list (a list is treated as a bare `no-cache`: stricter, and allowed).
    package var noCache = false
    /// `private` (always allowed in a private cache; recorded for completeness).
    package var isPrivate = false
    /// `public`.
    package var isPublic = false
    /// `must-revalidate`.
    package var mustRevalidate = false
    /// `max-age`, in seconds; 0 when its value was malformed.
    package var maxAge: Int64?
    /// `s-maxage`, in seconds: ignored for freshness (shared caches only) but it permits storing an authorized
    /// response (§3.5).
    package var sharedMaxAge: Int64?
    /// `stale-while-revalidate` (RFC 5861 §3), in seconds; `nil` when absent or malformed.
    package var staleWhileRevalidate: Int64?
    /// `stale-if-error` (RFC 5861 §4), in seconds; `nil` when absent or malformed.
    package var staleIfError: Int64?
    /// `immutable` (RFC 8246).
    package var immutable = false
    /// `must-understand` (§5.2.2.3).
    package var mustUnderstand = false
    /// A request's `max-stale` (§5.2.1.2), in seconds: how stale a response it accepts; without a value, any
    /// (``maximumDeltaSeconds``); `nil` when absent or malformed (a malformed value accepts nothing stale).
    package var maxStale: Int64?
    /// A request's `min-fresh` (§5.2.1.3), in seconds: how long a response must stay fresh; `nil` when absent or
    /// malformed.
    package var minFresh: Int64?
    /// A request's `only-if-cached` (§5.2.1.7): a stored response or a `504`, never the network.
    package var onlyIfCached = false
    /// `proxy-revalidate` (§5.2.2.8): as `must-revalidate`, for shared caches only.
    package var proxyRevalidate = false
    /// Descriptions of malformed directives, for a debug log.
    package var problems: [String] = []

    /// No directives.
    package init() {}

    /// Parses every field value given, in order.
    ///
    /// - Parameter values: The values of every `Cache-Control` field.
    package init(_ values: [String]) {
        var seen: Set<String> = []
        for directive in FieldSyntax.listMembers(values) {
            let (rawName, rawArgument) = FieldSyntax.cut(directive, at: UInt8(ascii: "="))
            let trimmedName = FieldSyntax.trimmed(rawName)
            guard !trimmedName.isEmpty else {
                problems.append(
                    "a directive without a name: \"\(DisplayText.escapingControlCharacters(String(directive)))\"")
                continue
            }
            // A name that is not a token (RFC 9111 §5.2: directives are tokens) is no directive this cache knows.
            guard let name = FieldSyntax.token(trimmedName), seen.insert(name).inserted else { continue }
            apply(name, rawArgument.map { String(FieldSyntax.unquoted(FieldSyntax.trimmed($0))) })
        }
    }

    /// The directives of a request's or a response's fields.
    ///
    /// - Parameter fields: The header fields.
    package init(fields: HTTPFields) {
        self.init(fields[values: "Cache-Control"])
    }

    private mutating func apply(_ name: String, _ argument: String?) {
        switch name {
        case "no-store": noStore = true
        case "no-cache": noCache = true
        case "private": isPrivate = true
        case "public": isPublic = true
        case "must-revalidate": mustRevalidate = true
        case "max-age": maxAge = seconds(argument, of: name) ?? 0
        case "s-maxage": sharedMaxAge = seconds(argument, of: name) ?? 0
        case "stale-while-revalidate": staleWhileRevalidate = seconds(argument, of: name)
        case "stale-if-error": staleIfError = seconds(argument, of: name)
        case "immutable": immutable = true
        case "must-understand": mustUnderstand = true
        case "max-stale": maxStale = argument == nil ? Self.maximumDeltaSeconds : seconds(argument, of: name)
        case "min-fresh": minFresh = seconds(argument, of: name)
        case "only-if-cached": onlyIfCached = true
        case "proxy-revalidate": proxyRevalidate = true
        default: break
        }
    }

    /// delta-seconds: ASCII digits only; saturates at ``maximumDeltaSeconds``.
    private mutating func seconds(_ argument: String?, of name: String) -> Int64? {
        guard let argument, !argument.isEmpty,
            argument.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else {
            let shown = argument.map { "\"\(DisplayText.escapingControlCharacters($0))\"" } ?? "nothing"
            problems.append("\(name) has \(shown), not a number of seconds")
            return nil
        }
        let digits = argument.utf8.drop { $0 == UInt8(ascii: "0") }
        guard digits.count <= 10, let value = Int64(digits.isEmpty ? "0" : String(decoding: digits, as: UTF8.self))
        else {
            return Self.maximumDeltaSeconds
        }
        return min(value, Self.maximumDeltaSeconds)
    }
}
