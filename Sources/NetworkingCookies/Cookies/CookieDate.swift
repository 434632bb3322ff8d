import Foundation
import NetworkingHTTP
import NetworkingCore

/// The cookie-date parser of RFC 6265 §5.1.1: the forgiving algorithm browsers use for `Expires`.
///
/// ```swift
/// CookieDate.parse("Wed, 09 Jun 2021 10:18:14 GMT")   // 2021-06-09 10:18:14 UTC
/// CookieDate.parse("Sunday, 06-Nov-94 08:49:37 GMT")  // 1994-11-06 (two-digit years: 70-99 → 19xx, 0-69 → 20xx)
/// CookieDate.parse("soon")                           // nil
/// ```
/// The text is cut into tokens at delimiters; the first token that looks like a time (`h:m:s`), a day of month,
/// a month name (its first three letters) and a year is taken for each. A missing part, a day outside 1-31 or past
/// the month's end, an hour above 23, a minute or second above 59, or a year before 1601 makes the date invalid.
/// Time zones are ignored: cookie dates are UTC. Any input, however long or strange, returns in linear time.
public enum CookieDate {
    /// The date `text` names, or `nil` when it is not a cookie date.
    ///
    /// - Parameter text: An `Expires` attribute value.
    /// - Returns: The date, in UTC.
    public static func parse(_ text: String) -> Date? {
        var time: (Int, Int, Int)?
        var day: Int?
        var month: Int?
        var year: Int?
        for token in tokens(of: Array(text.utf8)) {
            if time == nil, let found = parseTime(token) {
                time = found
            } else if day == nil, let found = leadingNumber(token, minDigits: 1, maxDigits: 2) {
                day = found
            } else if month == nil, let found = parseMonth(token) {
                month = found
            } else if year == nil, let found = leadingNumber(token, minDigits: 2, maxDigits: 4) {
                year = found
            }
        }
        guard let (hour, minute, second) = time, let day, let month, var year else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard (1...31).contains(day), year >= 1601, hour <= 23, minute <= 59, second <= 59,
            day <= daysIn(month: month, year: year)
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte) || (0x5B...0x60).contains(byte)
            || (0x7B...0x7E).contains(byte)
    }

    private static func tokens(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var tokens: [ArraySlice<UInt8>] = []
        var start: Int?
        for index in bytes.indices {
            if isDelimiter(bytes[index]) {
                if let begin = start { tokens.append(bytes[begin..<index]) }
                start = nil
            } else if start == nil {
                start = index
            }
        }
        if let begin = start { tokens.append(bytes[begin...]) }
        return tokens
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// 1-`maxDigits` digits (at least `minDigits`) at the start, followed by nothing or a non-digit.
    private static func leadingNumber(_ token: ArraySlice<UInt8>, minDigits: Int, maxDigits: Int) -> Int? {
        var value = 0
        var count = 0
        for byte in token {
            guard isDigit(byte) else { break }
            count += 1
            guard count <= maxDigits else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return count >= minDigits ? value : nil
    }

    /// `hms-time`: 1*2DIGIT ":" 1*2DIGIT ":" 1*2DIGIT, optionally followed by non-digits.
    private static func parseTime(_ token: ArraySlice<UInt8>) -> (Int, Int, Int)? {
        var parts: [Int] = []
        var value = 0
        var digits = 0
        var index = token.startIndex
        while index < token.endIndex {
            let byte = token[index]
            if isDigit(byte) {
                digits += 1
                guard digits <= 2 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            } else if byte == 0x3A, parts.count < 2, digits > 0 {
                parts.append(value)
                value = 0
                digits = 0
            } else {
                break
            }
            index += 1
        }
        guard parts.count == 2, digits > 0 else { return nil }
        return (parts[0], parts[1], value)
    }

    private static let months: [[UInt8]] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ].map { Array($0.utf8) }

    private static func parseMonth(_ token: ArraySlice<UInt8>) -> Int? {
        guard token.count >= 3 else { return nil }
        let prefix = token.prefix(3).map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
        return months.firstIndex(of: prefix).map { $0 + 1 }
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
