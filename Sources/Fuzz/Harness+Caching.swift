import Foundation
import Networking
import NetworkingHTTP
import NetworkingHTTPCache

extension Harness {
    /// `Cache-Control`, `Age` and `Expires` from a response: every lifetime the cache reads is within RFC 9111's
    /// bounds (never negative, capped at 2^31 s), and a stored entry's freshness is computed without a crash.
    static func cacheControl(_ data: Data) {
        let (control, rest) = pair(data)
        let (age, expires) = pair(Data(rest.utf8))
        let parsed = CacheControl(FieldSyntax.split(control, separator: UInt8(ascii: ",")).map(String.init))
        for delta in [parsed.maxAge, parsed.sharedMaxAge, parsed.staleWhileRevalidate, parsed.staleIfError] {
            guard let delta else { continue }
            check(
                (0...CacheControl.maximumDeltaSeconds).contains(delta), "a delta-seconds is within 0...2^31: \(delta)")
        }
        var fields = HTTPFields()
        fields[.cacheControl] = control
        fields[.age] = age
        fields[.expires] = expires
        guard fields.invalidReason == nil else { return }
        check(CacheFreshness.ageHeader(of: fields) >= 0, "an Age is never negative")
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let entry = HTTPCacheEntry(
            status: 200, headerFields: fields, body: Data(), requestDate: now, responseDate: now)
        let lifetime = CacheFreshness.lifetime(of: entry)
        check(lifetime >= 0, "a freshness lifetime is never negative")
        check(CacheFreshness.currentAge(of: entry, now: now) >= 0, "a current age is never negative")
        _ = CacheFreshness.isFresh(entry, now: now)
    }

    /// `Retry-After`: seconds or a date, and a wait that is never negative or infinite.
    static func retryAfter(_ data: Data) {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        guard let value = RetryAfter(text(data), now: now) else { return }
        let wait = value.delay(from: now)
        check(wait >= .zero, "a wait is never negative")
        if case .seconds(let seconds) = value { check(seconds >= 0, "seconds are never negative: \(seconds)") }
    }
}
