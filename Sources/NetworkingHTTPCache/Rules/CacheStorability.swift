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
    /// URL and explicit freshness (§4, reused for a later `GET`); the status is final (200 to 599, never `206` or
    /// `304`), and one the cache understands (``CacheFreshness/understoodStatuses``) when the response says
    /// `must-understand`; neither request nor response says `no-store` (a response's `no-store` is ignored when it
    /// also says `must-understand` and the status is understood, §5.2.2.3); the response has explicit freshness
    /// (`max-age`, `Expires`, `s-maxage` in a shared cache), says `public` (or `private` in a private cache), or has a
    /// heuristically cacheable status
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
        guard (200...599).contains(status), status != 304 else {
            return "the status \(status) is not a final response the cache stores"
        }
        // §3: a status the cache does not understand (299, 499, 599) is stored like any other with explicit
        // freshness or public; with must-understand, only an understood one is (§5.2.2.3).
        let understood = CacheFreshness.understoodStatuses.contains(status)
        if control.mustUnderstand && !understood {
            return "the response says must-understand and the status \(status) is not one this cache understands"
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
        for member in FieldSyntax.listMembers(fields[values: "Connection"], quoted: false) {
            if let name = FieldSyntax.token(member) { names.insert(name) }
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
        for member in FieldSyntax.listMembers(response[values: "Vary"], quoted: false) {
            if FieldSyntax.equals(member, "*") { return nil }
            // A member that is not a token names no field a request can carry: kept, it matches only its absence.
            let name = FieldSyntax.token(member) ?? HTTPToken.lowercasedASCII(String(member))
            if !names.contains(where: { FieldSyntax.equals($0, name) }) { names.append(name) }
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
    /// the default), and members ordered by weight, highest first (`de;q=0.5, en` is `en, de;q=0.5`: RFC 9110
    /// §12.4.2 orders preferences by weight). Members of equal weight keep their order: deployed servers break ties
    /// by it (Express's `negotiator` picks the first of equal weights), so `en, de` and `de, en` are different
    /// requests to them.
    package static func normalizedPreferences(_ values: [String]) -> String {
        var members: [(text: String, weight: Int)] = []
        for member in FieldSyntax.listMembers(values) {
            let parts = FieldSyntax.split(member, separator: UInt8(ascii: ";"), quoted: true).map {
                HTTPToken.lowercasedASCII(
                    String(decoding: $0.utf8.filter { !FieldSyntax.isWhitespace($0) }, as: UTF8.self))
            }
            guard let first = parts.first, !first.isEmpty else { continue }
            var text = first
            var weight = 1_000
            for parameter in parts.dropFirst() {
                if FieldSyntax.hasPrefixIgnoringCase(parameter, "q="),
                    let thousandths = self.thousandths(parameter.utf8.dropFirst(2))
                {
                    weight = thousandths
                    if thousandths != 1_000 { text += ";q=" + shortestWeight(thousandths) }
                } else {
                    text += ";" + parameter
                }
            }
            members.append((text, weight))
        }
        // A stable sort: equal weights keep their order.
        let ordered = members.enumerated().sorted { ($0.element.weight, $1.offset) > ($1.element.weight, $0.offset) }
        return ordered.map(\.element.text).joined(separator: ",")
    }

    /// A qvalue (RFC 9110 §12.4.2) in thousandths: `0.5` is 500, `1` is 1,000; `nil` when invalid.
    private static func thousandths(_ text: Substring.UTF8View.SubSequence) -> Int? {
        let (whole, fraction) = (text.first, text.dropFirst())
        guard let whole, whole == UInt8(ascii: "0") || whole == UInt8(ascii: "1") else { return nil }
        var digits = fraction[...]
        if let dot = digits.first {
            guard dot == UInt8(ascii: ".") else { return nil }
            digits = digits.dropFirst()
        }
        guard digits.count <= 3, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        var value = Int(whole - UInt8(ascii: "0")) * 1_000
        var scale = 100
        for digit in digits {
            value += Int(digit - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        return value <= 1_000 ? value : nil
    }

    /// A weight in its shortest form: 500 is `0.5`, 1,000 is `1`, 0 is `0`.
    private static func shortestWeight(_ thousandths: Int) -> String {
        guard thousandths > 0 else { return "0" }
        guard thousandths < 1_000 else { return "1" }
        var fraction = String(thousandths)
        fraction = String(repeating: "0", count: 3 - fraction.utf8.count) + fraction
        while fraction.utf8.last == UInt8(ascii: "0") { fraction.removeLast() }
        return "0." + fraction
    }

    /// Whether `request` carries the same values as the stored ones for every header the stored `Vary` names.
    package static func matches(_ entry: HTTPCacheEntry, request: HTTPFields) -> Bool {
        guard let names = varyNames(of: entry.headerFields) else { return false }
        // As octets: `==` on strings would take `fr\u{37E}q=0.5` for `fr;q=0.5`, which a server reads otherwise.
        let selected = varyingFields(of: request, names: names)
        return selected.count == entry.varyingRequestFields.count
            && selected.allSatisfy { name, value in
                entry.varyingRequestFields[name].map { FieldSyntax.equals($0, value) } ?? false
            }
    }

    /// Values joined with `, `, each member trimmed, so `a,b` and `a, b` compare equal (§4.1 normalization).
    private static func normalized(_ values: [String]) -> String {
        values.flatMap { FieldSyntax.split($0, separator: UInt8(ascii: ","), quoted: true, trimming: true) }
            .joined(separator: ", ")
    }
}
