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
                check(!part.contains(";"), "a cookie's name and value hold no ';': \(part.debugDescription)")
                check(
                    !part.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F },
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
            check(piece.first != " " && piece.last != " ", "the splitter trims its pieces")
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

    /// `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func imfFixdate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
