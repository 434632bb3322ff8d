import Foundation
import Networking
import NetworkingHTTP

extension Harness {
    /// A `Set-Cookie` field: a parsed cookie has a name and value free of `;` and control characters, and written
    /// back as a field it parses to the same cookie. Joined with commas and split again (the Foundation transport's
    /// path), no piece is empty or padded, and no cookie is lost when each one parses alone.
    static func setCookie(_ data: Data) {
        let field = text(data)
        if let cookie = SetCookie.parse(field) {
            for part in [cookie.name, cookie.value] {
                // The byte 0x3B: Swift takes U+037E (GREEK QUESTION MARK) for ';' (found by `make fuzz`).
                check(
                    !part.utf8.contains(UInt8(ascii: ";")),
                    "a cookie's name and value hold no ';': \(part.debugDescription)")
                check(
                    !part.utf8.contains { $0 < 0x20 && $0 != 0x09 || $0 == 0x7F },
                    "a cookie's name and value hold no control character")
            }
            var written = "\(cookie.name)=\(cookie.value)"
            if let path = cookie.path { written += "; Path=\(path)" }
            if let domain = cookie.domain { written += "; Domain=\(domain)" }
            if let maxAge = cookie.maxAge { written += "; Max-Age=\(maxAge)" }
            if cookie.isSecure { written += "; Secure" }
            if cookie.isHTTPOnly { written += "; HttpOnly" }
            if let again = SetCookie.parse(written) {
                check(again.name == cookie.name && again.value == cookie.value, "a cookie written back parses the same")
                check(again.path == cookie.path && again.maxAge == cookie.maxAge, "its attributes parse the same")
            } else {
                check(cookie.name.isEmpty && cookie.value.isEmpty, "a parsed cookie written back parses again")
            }
        }
        let pieces = SetCookieFieldSplitter.split(joined: field)
        for piece in pieces {
            check(!piece.isEmpty, "the splitter gives no empty piece")
            check(
                piece.utf8.first.map(FieldSyntax.isWhitespace) != true
                    && piece.utf8.last.map(FieldSyntax.isWhitespace) != true,
                "the splitter trims its pieces")
        }
        check(pieces.count <= field.utf8.filter { $0 == UInt8(ascii: ",") }.count + 1, "a piece per comma at most")
    }

    /// Cookie dates and HTTP dates: a date parsed is written back in the IMF form and read again as the same
    /// second, and the strict reading accepts nothing the lenient one refuses.
    static func dates(_ data: Data) {
        let value = text(data)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        if let date = CookieDate.parse(value) {
            check(date.timeIntervalSince1970.isFinite, "a cookie date is a real date")
            let written = imfFixdate(date)
            if let again = CookieDate.parse(written) {
                check(abs(again.timeIntervalSince(date)) < 1, "a cookie date written back reads the same: \(written)")
            }
        }
        if let strict = HTTPDate.parseStrictly(value, now: now) {
            check(HTTPDate.parse(value, now: now) == strict, "the strict reading agrees with the lenient one")
            check(HTTPDate.parseStrictly(imfFixdate(strict), now: now) == strict, "an HTTP-date round-trips")
        }
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT`, in the proleptic Gregorian calendar HTTP dates use for every year
    /// (Foundation's formatter switches to the Julian calendar before 1582).
    static func imfFixdate(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let weekday = ((days % 7) + 11) % 7  // 1970-01-01 was a Thursday
        let names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(names[Int(weekday)]), \(two(day)) \(months[Int(month - 1)]) \(yearText) "
            + "\(two(time / 3_600)):\(two(time % 3_600 / 60)):\(two(time % 60)) GMT"
    }
}
