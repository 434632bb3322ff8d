import Foundation
import NetworkingHTTP
import NetworkingCore

/// Whether a response may be stored by a private or a shared cache (RFC 9111 §3, §3.5) and whether a stored one matches a new
/// request's headers (`Vary`, §4.1).
package enum CacheStorability {
    /// Statuses the cache stores: the heuristically cacheable ones of RFC 9110 §15.1 (206 excluded: ranges are
    /// not cached).
    package static let cacheableStatuses = CacheFreshness.heuristicallyCacheable

    /// Why the response to `request` must not be stored; `nil` when it may be.
    ///
    /// Stored only when: the method is `GET`; the status is in ``cacheableStatuses``; neither request nor
    /// response says `no-store`; the response's `Vary` is not `*`. A **shared** cache also refuses (RFC 9111 §3.5,
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
        guard request.method == .get else { return "the method is \(request.method.rawValue), not GET" }
        guard cacheableStatuses.contains(status) else { return "the status \(status) is not cacheable" }
        if CacheControl(fields: request.headerFields).noStore { return "the request says no-store" }
        let control = CacheControl(fields: response)
        if control.noStore { return "the response says no-store" }
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
            selected[name] = normalized(values)
        }
        return selected
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
