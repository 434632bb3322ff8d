import Foundation
import NetworkingHTTP
import NetworkingCore

/// Whether a response may be stored by a private or a shared cache (RFC 9111 §3, §3.5) and whether a stored one matches a new
/// request's headers (`Vary`, §4.1).
package enum CacheStorability {
    /// Statuses the cache stores without explicit freshness: the heuristically cacheable ones of RFC 9110 §15.1
    /// (206 excluded: ranges are not cached).
    package static let cacheableStatuses = CacheFreshness.heuristicallyCacheable

    /// Hop-by-hop fields (RFC 9110 §7.6.1): never stored, never served from the store (RFC 9111 §3.1), along with
    /// every field that `Connection` names.
    package static let hopByHopNames: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade",
    ]

    /// The fields of the proxy a cache forwards through (RFC 9111 §3.1: "MUST NOT be stored" unless the proxy's
    /// identity is part of the key, which it is not here): never stored, never served.
    package static let proxyNames: Set<String> = [
        "proxy-authenticate", "proxy-authentication-info", "proxy-authorization",
    ]

    /// Why the response to `request` must not be stored; `nil` when it may be.
    ///
    /// Stored only when (RFC 9111 §3): the method is `GET`, or `POST` with a `Content-Location` that is the request
    /// URL and explicit freshness (§4, reused for a later `GET`); the status is one the cache understands
    /// (``CacheFreshness/understoodStatuses``; never `206`); neither request nor response says `no-store` (a
    /// response's `no-store` is ignored when it also says `must-understand` and the status is understood,
    /// §5.2.2.3); the response has explicit freshness (`max-age`, `Expires`, `s-maxage` in a shared cache),
    /// says `public` (or `private` in a private cache), or has a heuristically cacheable status
    /// (``cacheableStatuses``); and its `Vary` is not `*`. A **shared** cache also refuses (RFC 9111 §3.5,
    /// §5.2.2.7): a response that says `private`; a response carrying `Set-Cookie` (it would hand one user's session
    /// to the next; stricter than the RFC, on purpose); and the response to a request carrying a credential (any
    /// sensitive field: `Authorization`, `Cookie`, `Proxy-Authorization`, a field marked sensitive) unless the
    /// response allows sharing it with `public`, `must-revalidate` or `s-maxage` (§3.5 names `Authorization`; the
    /// other credentials are held to the same rule, on purpose). A **private** cache keeps each credential's
    /// responses apart (see ``HTTPCacheBehavior``), so none of these apply to it.
    ///
    /// - Parameters:
    ///   - request: The request as sent.
    ///   - status: The response's status code.
    ///   - response: The response's header fields.
    ///   - shared: Whether the cache is shared between users.
    /// - Returns: Why not, or `nil`.
    package static func reasonNotToStore(
        request: HTTPRequest, status: Int, response: HTTPFields, shared: Bool = false
    ) -> String? {
        let control = CacheControl(fields: response)
        let explicit = CacheFreshness.hasExplicitLifetime(response, shared: shared)
        switch request.method {
        case .get: break
        case .post where explicit && contentLocationIsRequestURL(request: request, response: response): break
        case .post: return "the method is POST without explicit freshness and a Content-Location of its own URL"
        default: return "the method is \(request.method.rawValue), not GET"
        }
        if status == 206 { return "the status is 206: partial responses are not stored" }
        guard CacheFreshness.understoodStatuses.contains(status) else {
            return "the status \(status) is not one this cache understands"
        }
        if CacheControl(fields: request.headerFields).noStore { return "the request says no-store" }
        if control.noStore && !control.mustUnderstand { return "the response says no-store" }
        guard explicit || control.isPublic || (control.isPrivate && !shared) || cacheableStatuses.contains(status)
        else { return "the status \(status) is stored only with explicit freshness, and the response has none" }
        if varyNames(of: response) == nil { return "the response varies on *" }
        guard shared else { return nil }
        if control.isPrivate { return "the response says private and this cache is shared" }
        if response.contains("Set-Cookie") { return "the response sets a cookie and this cache is shared" }
        if let credential = credentialName(in: request.headerFields),
            !(control.isPublic || control.mustRevalidate || control.sharedMaxAge != nil)
        {
            return "the request carries \(credential) and the response is not public, must-revalidate or s-maxage"
        }
        return nil
    }

    /// Whether the response's `Content-Location`, resolved against the request URL, is the request URL itself
    /// (scheme and host compared without case): the response then represents that URL's resource (RFC 9110
    /// §8.7) and a `GET` may reuse it (RFC 9111 §4).
    package static func contentLocationIsRequestURL(request: HTTPRequest, response: HTTPFields) -> Bool {
        guard let value = response["Content-Location"], let base = request.url,
            let target = URL(string: value, relativeTo: base)?.absoluteURL, let parts = RequestTarget(target)
        else { return false }
        return parts.scheme == request.scheme && parts.path == request.path
            && HTTPToken.lowercasedASCII(parts.authority) == HTTPToken.lowercasedASCII(request.authority)
    }

    /// `fields` without the hop-by-hop fields, those `Connection` names and the proxy's (RFC 9111 §3.1).
    package static func withoutHopByHopFields(_ fields: HTTPFields) -> HTTPFields {
        var names = hopByHopNames.union(proxyNames)
        for value in fields[values: "Connection"] {
            for member in value.split(separator: ",") {
                names.insert(
                    HTTPToken.lowercasedASCII(member.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))))
            }
        }
        guard fields.contains(where: { names.contains($0.name.canonicalName) }) else { return fields }
        var kept = fields
        kept.removeAll { names.contains($0.name.canonicalName) }
        return kept
    }

    /// The name of the first credential field of `fields` (a sensitive one), or `nil` when there is none.
    package static func credentialName(in fields: HTTPFields) -> String? {
        fields.first { $0.isSensitive }?.name.rawName
    }

    /// The lower-cased header names `Vary` lists, without duplicates, in order; `nil` for `Vary: *`.
    package static func varyNames(of response: HTTPFields) -> [String]? {
        var names: [String] = []
        for value in response[values: "Vary"] {
            for member in value.split(separator: ",") {
                let name = HTTPToken.lowercasedASCII(member.trimmingCharacters(in: CharacterSet(charactersIn: " \t")))
                if name == "*" { return nil }
                if !name.isEmpty && !names.contains(name) { names.append(name) }
            }
        }
        return names
    }

    /// The request's values of the headers `names` lists, normalized for comparison; absent headers are left out.
    package static func varyingFields(of request: HTTPFields, names: [String]) -> [String: String] {
        var selected: [String: String] = [:]
        for name in names {
            let values = request[values: HTTPField.Name(name)]
            guard !values.isEmpty else { continue }
            selected[name] =
                preferenceLists.contains(name) ? normalizedPreferences(values) : normalized(values)
        }
        return selected
    }

    /// Request fields whose values are lists of case-insensitive tokens with weights, normalized further.
    package static let preferenceLists: Set<String> = ["accept-encoding", "accept-language"]

    /// An `Accept-Encoding` or `Accept-Language` list normalized only where the meaning cannot change (§4.1):
    /// members lower-cased (codings and language tags are case-insensitive), spaces around `;` and `=` removed,
    /// empty members dropped, a weight written in its shortest form (`q=0.50` is `q=0.5`) and `q=1` left out (it is
    /// the default). The order of members is kept: servers may prefer the earlier of two equal weights.
    package static func normalizedPreferences(_ values: [String]) -> String {
        var members: [String] = []
        for member in values.flatMap({ $0.split(separator: ",") }) {
            let parts = member.split(separator: ";", omittingEmptySubsequences: false).map {
                HTTPToken.lowercasedASCII($0.filter { $0 != " " && $0 != "\t" })
            }
            guard let first = parts.first, !first.isEmpty else { continue }
            var text = first
            for parameter in parts.dropFirst() {
                if parameter.hasPrefix("q="), let weight = shortestWeight(parameter.dropFirst(2)) {
                    if weight != "1" { text += ";q=" + weight }
                } else {
                    text += ";" + parameter
                }
            }
            members.append(text)
        }
        return members.joined(separator: ",")
    }

    /// A qvalue (RFC 9110 §12.4.2) without trailing zeros: `0.500` is `0.5`, `1.000` is `1`; `nil` when invalid.
    private static func shortestWeight(_ text: Substring) -> String? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, whole == "0" || whole == "1" else { return nil }
        let fraction = parts.count == 2 ? parts[1] : ""
        guard fraction.count <= 3, fraction.allSatisfy({ $0 >= "0" && $0 <= "9" }) else { return nil }
        let trimmedFraction = fraction.reversed().drop { $0 == "0" }.reversed()
        if whole == "1" { return trimmedFraction.isEmpty ? "1" : nil }
        return trimmedFraction.isEmpty ? "0" : "0." + String(trimmedFraction)
    }

    /// Whether `request` carries the same values as the stored ones for every header the stored `Vary` names.
    package static func matches(_ entry: HTTPCacheEntry, request: HTTPFields) -> Bool {
        guard let names = varyNames(of: entry.headerFields) else { return false }
        return varyingFields(of: request, names: names) == entry.varyingRequestFields
    }

    /// Values joined with `, `, each member trimmed, so `a,b` and `a, b` compare equal (§4.1 normalization).
    private static func normalized(_ values: [String]) -> String {
        values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \t")) }
            .joined(separator: ", ")
    }
}
