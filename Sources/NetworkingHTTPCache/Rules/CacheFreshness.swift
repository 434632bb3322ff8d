import Foundation
import NetworkingHTTP
import NetworkingCore

/// How long a stored response stays fresh and how old it is (RFC 9111 §4.2), for a private or a shared cache.
///
/// - **Lifetime** (§4.2.1), first that applies: in a shared cache, `s-maxage`; then `max-age`; else `Expires` minus
///   `Date` (an `Expires` that is not exactly a valid HTTP-date, such as `0`, a date with extra spaces, or two
///   `Expires` fields, means already expired: §5.3); else, for a status that is heuristically cacheable or a
///   response that says `public`, with `Last-Modified`, 10% of the time between `Last-Modified` and `Date`, at
///   most 24 hours (§4.2.2); else 0, so the response is stored only to be revalidated. A private cache ignores
///   `s-maxage`. Dates are read in any ASCII letter case (§4.2).
/// - **Age** (§4.2.3): `apparent_age = max(0, response_time - Date)`, `corrected_age = Age + (response_time -
///   request_time)`, initial age the larger of the two, plus the time resident in the cache.
///
/// Dates are read with `HTTPDate`; a missing or malformed `Date` is replaced by the time the response arrived,
/// and a malformed `Age` counts as 0; of a list-valued `Age` (`Age: 7200, 0`, or two fields) the first member
/// counts (§5.1). Every result is whole seconds, clamped so arithmetic never overflows.
package enum CacheFreshness {
    /// The longest heuristic lifetime: one day.
    package static let maximumHeuristicLifetime: Int64 = 86_400

    /// Statuses a cache may store without explicit freshness (RFC 9110 §15.1), minus 206 (ranges are not cached).
    package static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]

    /// The freshness lifetime of `entry`, in seconds.
    ///
    /// - Parameters:
    ///   - entry: The stored response.
    ///   - shared: Whether the cache is shared: then `s-maxage` comes first (§5.2.2.10).
    package static func lifetime(of entry: HTTPCacheEntry, shared: Bool = false) -> Int64 {
        let fields = entry.headerFields
        let control = CacheControl(fields: fields)
        if shared, let sharedMaxAge = control.sharedMaxAge { return sharedMaxAge }
        if let maxAge = control.maxAge { return maxAge }
        let date = servedDate(of: entry)
        let expiresValues = fields[values: "Expires"]
        if let expires = expiresValues.first {
            guard expiresValues.count == 1,
                let expiry = HTTPDate.parseStrictly(trimmed(expires), now: entry.responseDate)
            else { return 0 }
            return clampedSeconds(expiry.timeIntervalSince(date))
        }
        // §4.2.2: a heuristic lifetime for a heuristically cacheable status, or a response marked public.
        guard heuristicallyCacheable.contains(entry.status) || control.isPublic,
            let modifiedText = fields["Last-Modified"],
            let modified = HTTPDate.parse(trimmed(modifiedText), now: entry.responseDate)
        else { return 0 }
        return min(clampedSeconds(date.timeIntervalSince(modified) / 10), maximumHeuristicLifetime)
    }

    /// The current age of `entry` at `now`, in seconds (§4.2.3).
    package static func currentAge(of entry: HTTPCacheEntry, now: Date) -> Int64 {
        let apparentAge = clampedSeconds(entry.responseDate.timeIntervalSince(servedDate(of: entry)))
        let responseDelay = clampedSeconds(entry.responseDate.timeIntervalSince(entry.requestDate))
        let ageValue = ageHeader(of: entry.headerFields)
        let correctedAge = ageValue.addingReportingOverflow(responseDelay)
        let initialAge = max(apparentAge, correctedAge.overflow ? CacheControl.maximumDeltaSeconds : correctedAge.0)
        let resident = clampedSeconds(now.timeIntervalSince(entry.responseDate))
        let age = initialAge.addingReportingOverflow(resident)
        return age.overflow ? Int64.max : age.0
    }

    /// Statuses whose caching rules this cache understands (RFC 9110 §15, RFC 9111 §3): every final status of
    /// RFC 9110 except `206` (ranges are not stored: see the Conformance article) and `304` (an answer to a
    /// conditional request, applied to a stored response, never stored itself). With explicit freshness any final
    /// status is storable, these and the ones the cache does not know (`299`, `499`); with `must-understand`, only
    /// these are.
    package static let understoodStatuses: Set<Int> = [
        200, 201, 202, 203, 204, 205, 300, 301, 302, 303, 307, 308, 400, 401, 402, 403, 404, 405, 406, 407, 408,
        409, 410, 411, 412, 413, 414, 415, 416, 417, 421, 422, 426, 500, 501, 502, 503, 504, 505,
    ]

    /// Whether the response fields give an explicit lifetime (§4.2.1): `max-age`, `Expires`, or in a shared cache
    /// `s-maxage`.
    package static func hasExplicitLifetime(_ fields: HTTPFields, shared: Bool) -> Bool {
        let control = CacheControl(fields: fields)
        return control.maxAge != nil || fields.contains("Expires") || (shared && control.sharedMaxAge != nil)
    }

    /// Whether `entry` is fresh at `now`: its current age is below its lifetime.
    package static func isFresh(_ entry: HTTPCacheEntry, now: Date) -> Bool {
        currentAge(of: entry, now: now) < lifetime(of: entry)
    }

    /// The `Date` header, or the time the response arrived when it is missing or malformed.
    private static func servedDate(of entry: HTTPCacheEntry) -> Date {
        entry.headerFields[values: "Date"].first.flatMap { HTTPDate.parse(trimmed($0), now: entry.responseDate) }
            ?? entry.responseDate
    }

    /// `Age` as delta-seconds: the first member of the first field (§5.1); 0 when missing or malformed; saturated
    /// at 2^31.
    package static func ageHeader(of fields: HTTPFields) -> Int64 {
        guard let first = fields[values: "Age"].first else { return 0 }
        let text = FieldSyntax.trimmed(FieldSyntax.cut(first, at: UInt8(ascii: ",")).0)
        guard !text.isEmpty,
            text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return 0 }
        guard text.utf8.count <= 10, let value = Int64(String(text)) else { return CacheControl.maximumDeltaSeconds }
        return min(value, CacheControl.maximumDeltaSeconds)
    }

    /// Whole seconds of `interval`, never negative, never more than 2^31 (also for NaN and infinities).
    private static func clampedSeconds(_ interval: TimeInterval) -> Int64 {
        guard interval.isFinite, interval > 0 else { return 0 }
        return interval >= Double(CacheControl.maximumDeltaSeconds)
            ? CacheControl.maximumDeltaSeconds : Int64(interval)
    }

    private static func trimmed(_ text: String) -> String {
        String(text.trimmingSpacesAndTabs)
    }
}
