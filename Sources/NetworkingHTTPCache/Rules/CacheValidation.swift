import Foundation
import NetworkingHTTP
import NetworkingCore

/// Revalidation of a stale stored response (RFC 9110 §13, RFC 9111 §4.3): the conditional request, whether a
/// `304 Not Modified` speaks for the stored response, and the stored headers it updates.
package enum CacheValidation {
    /// Header fields a `304` never replaces in the stored response (RFC 9111 §3.2 and §3.1): framing and
    /// hop-by-hop fields, which describe the 304's own message.
    package static let fieldsKeptOn304: Set<String> = [
        "content-length", "transfer-encoding", "connection", "keep-alive", "proxy-connection", "te", "trailer",
        "upgrade", "proxy-authenticate", "proxy-authentication-info", "content-encoding", "content-range",
    ]

    /// Conditional headers a caller may set itself; with any of them the cache stays out of the call.
    package static let conditionalNames: [HTTPField.Name] = [
        "If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range", "Range",
    ]

    /// Whether the caller's request is conditional or partial already: the cache then passes it through untouched.
    package static func isCallerConditional(_ request: HTTPRequest) -> Bool {
        conditionalNames.contains { request.headerFields.contains($0) }
    }

    /// `request` with `If-None-Match` (the stored `ETag`) and `If-Modified-Since` (the stored `Last-Modified`,
    /// verbatim, as RFC 9110 §13.1.3 recommends); `nil` when the stored response has neither validator.
    package static func conditionalRequest(_ request: HTTPRequest, for entry: HTTPCacheEntry) -> HTTPRequest? {
        let etag = entry.headerFields["ETag"].map(trimmed).flatMap { $0.isEmpty ? nil : $0 }
        let modified = entry.headerFields["Last-Modified"].map(trimmed).flatMap { $0.isEmpty ? nil : $0 }
        guard etag != nil || modified != nil else { return nil }
        var conditional = request
        if let etag { conditional.headerFields["If-None-Match"] = etag }
        if let modified { conditional.headerFields["If-Modified-Since"] = modified }
        // A stored value the header rules refuse (a control character) must not make the request invalid.
        return conditional.invalidReason == nil ? conditional : nil
    }

    /// Whether a `304` answers for `entry` (RFC 9111 §4.3.4): a strong `ETag` selects a stored response with the
    /// same strong `ETag` (the strong comparison of RFC 9110 §8.8.3.2); a weak one, a stored response whose `ETag`
    /// matches by the weak comparison; without an `ETag`, a `Last-Modified` must equal the stored one when both
    /// have one; a 304 with no validator applies to the one stored response.
    package static func notModified(_ response: HTTPFields, appliesTo entry: HTTPCacheEntry) -> Bool {
        guard let new = response["ETag"].map(trimmed), !new.isEmpty else {
            guard let modified = response["Last-Modified"].map(trimmed), !modified.isEmpty,
                let stored = entry.headerFields["Last-Modified"].map(trimmed)
            else { return true }
            return modified == stored
        }
        guard let stored = entry.headerFields["ETag"].map(trimmed) else { return false }
        if new.hasPrefix("W/") { return weakOpaque(new) == weakOpaque(stored) }
        return !stored.hasPrefix("W/") && new == stored
    }

    /// The stored header fields updated by a `304`'s (RFC 9111 §3.2): every field the 304 carries replaces the
    /// stored fields of that name, `ETag` included, except ``fieldsKeptOn304`` and the fields the 304's
    /// `Connection` names; every other stored field stays.
    package static func merge(stored: HTTPFields, notModified: HTTPFields) -> HTTPFields {
        var merged = stored
        var replaced: Set<String> = []
        let updates = CacheStorability.withoutHopByHopFields(notModified)
        for field in updates where !fieldsKeptOn304.contains(field.name.canonicalName) {
            if replaced.insert(field.name.canonicalName).inserted {
                merged[values: field.name] = updates[values: field.name]
            }
        }
        return merged
    }

    /// An entity tag without its `W/` prefix, for the weak comparison.
    private static func weakOpaque(_ tag: String) -> String {
        tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
    }

    private static func trimmed(_ text: String) -> String {
        String(text.trimmingSpacesAndTabs)
    }
}
