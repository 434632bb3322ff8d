import Foundation

/// The three HTTP-date forms of RFC 9110 §5.6.7, parsed without locale-dependent formatters: shared by
/// `Retry-After` and the HTTP cache (`Date`, `Expires`, `Last-Modified`).
///
/// Never traps: anything that is not one of the three forms, or names an impossible date or time, is `nil`.
package enum HTTPDate {
    private typealias Bytes = ArraySlice<UInt8>

    private static let monthNames: [[UInt8]] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ].map { Array($0.utf8) }
    private static let dayNames: [[UInt8]] = [
        "mon", "tue", "wed", "thu", "fri", "sat", "sun",
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    ].map { Array($0.utf8) }

    /// Parses IMF-fixdate, RFC 850 or asctime; `nil` for anything else, or an impossible date or time. Names
    /// (days, months, `GMT`) are matched without regard to ASCII case, as RFC 9111 §4.2 asks of caches ("match the
    /// date formats case-insensitively"); runs of spaces count as one.
    package static func parse(_ text: String, now: Date) -> Date? {
        parse(tokens: FieldSyntax.split(Array(text.utf8)[...], at: space, omittingEmpty: true), now: now)
    }

    private static func parse(tokens: [Bytes], now: Date) -> Date? {
        guard let first = tokens.first else { return nil }
        if first.last == comma {
            guard isName(first.dropLast(), of: dayNames) else { return nil }
            if tokens.count == 6 {
                // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
                guard isGMT(tokens[5]), tokens[3].count == 4 else { return nil }
                return make(
                    year: number(tokens[3], digits: 4...4), month: month(tokens[2]),
                    day: number(tokens[1], digits: 1...2), time: tokens[4])
            }
            if tokens.count == 4 {
                // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
                let parts = FieldSyntax.split(tokens[1], at: UInt8(ascii: "-"), omittingEmpty: false)
                guard isGMT(tokens[3]), parts.count == 3, let twoDigits = number(parts[2], digits: 2...2) else {
                    return nil
                }
                return make(
                    year: fullYear(twoDigits, now: now), month: month(parts[1]), day: number(parts[0], digits: 1...2),
                    time: tokens[2])
            }
            return nil
        }
        // asctime: Sun Nov  6 08:49:37 1994 (the double space before a one-digit day collapses when splitting)
        guard tokens.count == 5, isName(first, of: dayNames) else { return nil }
        return make(
            year: number(tokens[4], digits: 4...4), month: month(tokens[1]), day: number(tokens[2], digits: 1...2),
            time: tokens[3])
    }

    /// Parses an HTTP-date written exactly as RFC 9110 §5.6.7's grammar says: one of the three forms, with single
    /// spaces (two before a one-digit day of asctime), a two-digit day in IMF-fixdate and RFC 850, nothing around
    /// it; names in any ASCII case (RFC 9111 §4.2). The cache reads `Expires` with it: an invalid `Expires` means
    /// "already expired" (RFC 9111 §5.3), so a value the lenient ``parse(_:now:)`` would accept (extra spaces) must
    /// be refused there.
    package static func parseStrictly(_ text: String, now: Date) -> Date? {
        let bytes = Array(text.utf8)[...]
        let tokens = FieldSyntax.split(bytes, at: space, omittingEmpty: false)
        let twoDigits = { (token: Bytes) in token.count == 2 && token.allSatisfy(isDigit) }
        switch tokens.count {
        case 6 where tokens[0].last == comma:
            guard tokens[0].count == 4, twoDigits(tokens[1]) else { return nil }  // IMF-fixdate
        case 4:
            guard tokens[0].last == comma, tokens[0].count > 4, tokens[1].count == 9 else { return nil }  // RFC 850
        case 5:
            guard tokens[0].last != comma, twoDigits(tokens[2]) else { return nil }  // asctime, two-digit day
        case 6:
            guard tokens[2].isEmpty, tokens[3].count == 1 else { return nil }  // asctime, one-digit day
        default:
            return nil
        }
        return parse(tokens: tokens.filter { !$0.isEmpty }, now: now)
    }

    private static let space = UInt8(ascii: " ")
    private static let comma = UInt8(ascii: ",")

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// Whether `token` is one of `names` (lower-case ASCII), ignoring ASCII case only.
    private static func isName(_ token: Bytes, of names: [[UInt8]]) -> Bool {
        names.contains { FieldSyntax.equalsIgnoringCase(token, $0) }
    }

    private static func isGMT(_ token: Bytes) -> Bool {
        FieldSyntax.equalsIgnoringCase(token, Array("gmt".utf8))
    }

    /// A date from checked parts, or `nil` when a part is missing or out of range.
    private static func make(year: Int?, month: Int?, day: Int?, time: Bytes) -> Date? {
        let clock = FieldSyntax.split(time, at: UInt8(ascii: ":"), omittingEmpty: false)
        guard let year, let month, let day, year >= 1, clock.count == 3,
            let hour = number(clock[0], digits: 2...2), let minute = number(clock[1], digits: 2...2),
            let second = number(clock[2], digits: 2...2),
            hour < 24, minute < 60, second <= 60, day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// An unsigned decimal of an allowed number of ASCII digits.
    private static func number(_ token: Bytes, digits: ClosedRange<Int>) -> Int? {
        guard digits.contains(token.count), token.allSatisfy(isDigit) else { return nil }
        return token.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    /// The month number, 1 to 12, from its three-letter name in any ASCII case.
    private static func month(_ token: Bytes) -> Int? {
        monthNames.firstIndex { FieldSyntax.equalsIgnoringCase(token, $0) }.map { $0 + 1 }
    }

    /// A two-digit year placed, as RFC 9110 requires, no more than 50 years after `now`'s year.
    private static func fullYear(_ twoDigits: Int, now: Date) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let current = calendar.component(.year, from: now)
        var year = current - current % 100 + twoDigits
        if year > current + 50 {
            year -= 100
        } else if year <= current - 50 {
            year += 100
        }
        return year
    }

    private static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date, counting whole years, then months.
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        // Days before `year` since year 1, minus the days from year 1 to 1970.
        let previous = year - 1
        let daysBeforeYear = previous * 365 + previous / 4 - previous / 100 + previous / 400 - 719_162
        var days = daysBeforeYear
        for earlier in 1..<month {
            days += daysIn(month: earlier, year: year)
        }
        return days + day - 1
    }
}
