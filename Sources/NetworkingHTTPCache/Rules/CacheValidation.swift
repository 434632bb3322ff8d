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
        let etag = entry.headerFields["ETag"].map(FieldSyntax.trimmed).flatMap { $0.isEmpty ? nil : String($0) }
        let modified = entry.headerFields["Last-Modified"].map(FieldSyntax.trimmed)
            .flatMap { $0.isEmpty ? nil : String($0) }
        guard etag != nil || modified != nil else { return nil }
        var conditional = request
        if let etag { conditional.headerFields["If-None-Match"] = etag }
        if let modified { conditional.headerFields["If-Modified-Since"] = modified }
        // A stored value the header rules refuse (a control character) must not make the request invalid.
        return conditional.invalidReason == nil ? conditional : nil
    }

    /// Whether a `304` answers for `entry`, the stored response the cache revalidated: an `ETag` in the 304 selects
    /// it when it matches the stored `ETag`, which is what the cache sent in `If-None-Match`, by the weak comparison
    /// of RFC 9110 §8.8.3.2 (`W/"1"` and `"1"` match, `"2"` does not); without an `ETag`, a `Last-Modified` must
    /// equal the stored one when both have one; a 304 with no validator applies to the one stored response.
    ///
    /// RFC 9111 §4.3.4 selects by the strong comparison when the 304's validator is strong. nginx's gzip filter
    /// weakens the `ETag` of a compressed `200` (`W/"1"`) but answers the revalidation with a 304 carrying the strong
    /// `"1"`: the strong comparison would refuse it and fetch the whole body again on every revalidation. A 304 is
    /// the answer to the cache's own conditional request, and browsers refresh the response they asked about; so
    /// does this cache. A 304 naming another representation (`"2"`) is still refused.
    package static func notModified(_ response: HTTPFields, appliesTo entry: HTTPCacheEntry) -> Bool {
        guard let new = response["ETag"].map(FieldSyntax.trimmed), !new.isEmpty else {
            guard let modified = response["Last-Modified"].map(FieldSyntax.trimmed), !modified.isEmpty,
                let stored = entry.headerFields["Last-Modified"].map(FieldSyntax.trimmed)
            else { return true }
            return FieldSyntax.equals(modified, stored)
        }
        guard let stored = entry.headerFields["ETag"].map(FieldSyntax.trimmed) else { return false }
        return FieldSyntax.equals(opaqueTag(new), opaqueTag(stored))
    }

    /// Whether a `HEAD`'s `200` describes `entry`, the stored `GET` response it could have chosen (RFC 9111
    /// §4.3.5): every validator it carries matches the stored one (`ETag` by the weak comparison, as for a `304`;
    /// `Last-Modified` as the same octets), and its `Content-Length`, when it has one, is the stored response's
    /// (its `Content-Length`, else the length of the stored body).
    package static func headResponse(_ response: HTTPFields, matches entry: HTTPCacheEntry) -> Bool {
        if let new = response["ETag"].map(FieldSyntax.trimmed), !new.isEmpty {
            guard let stored = entry.headerFields["ETag"].map(FieldSyntax.trimmed),
                FieldSyntax.equals(opaqueTag(new), opaqueTag(stored))
            else { return false }
        }
        if let new = response["Last-Modified"].map(FieldSyntax.trimmed), !new.isEmpty {
            guard let stored = entry.headerFields["Last-Modified"].map(FieldSyntax.trimmed),
                FieldSyntax.equals(new, stored)
            else { return false }
        }
        if let length = response[.contentLength].map(FieldSyntax.trimmed) {
            let stored =
                entry.headerFields[.contentLength].map(FieldSyntax.trimmed) ?? Substring(String(entry.body.count))
            guard FieldSyntax.equals(length, stored) else { return false }
        }
        return true
    }

    /// Whether `tag` is a weak entity tag (`W/"..."`, RFC 9110 §8.8.3).
    package static func isWeak(_ tag: Substring) -> Bool {
        tag.utf8.starts(with: "W/".utf8)
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
        // A weak validator stays weak: a strong ETag in a 304 that matched a stored weak one only by the weak
        // comparison (nginx's gzip case above) does not make the stored representation's validator strong.
        if let storedTag = stored["ETag"].map(FieldSyntax.trimmed), isWeak(storedTag),
            let newTag = notModified["ETag"].map(FieldSyntax.trimmed), !isWeak(newTag),
            FieldSyntax.equals(opaqueTag(newTag), opaqueTag(storedTag))
        {
            merged["ETag"] = String(storedTag)
        }
        return merged
    }

    /// An entity tag without its `W/` prefix, for the weak comparison.
    private static func opaqueTag(_ tag: Substring) -> Substring {
        isWeak(tag) ? tag[tag.utf8.index(tag.utf8.startIndex, offsetBy: 2)...] : tag
    }
}
