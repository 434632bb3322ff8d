import Foundation
import Networking
import Testing
import NetworkingTestSupport

/// RFC 6265 §5.1.1, the cookie-date algorithm, step by step: one row per rule. Listed in
/// `Networking.docc/Conformance.md`.
@Suite struct CookieDateConformanceTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let step: String
        let rule: String
        let text: String
        let expected: Date?
        var testDescription: String { "§5.1.1 \(step) \(rule)" }
    }

    private static func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: DateComponents(year: y, month: mo, day: d, hour: h, minute: mi, second: s))!
    }

    private static let june9 = utc(2021, 6, 9, 10, 18, 14)

    static let rows: [Row] = [
        // Step 1: tokens
        Row(step: "step 1", rule: "the usual RFC 1123 form", text: "Wed, 09 Jun 2021 10:18:14 GMT", expected: june9),
        Row(
            step: "step 1", rule: "every delimiter of the grammar separates tokens",
            text: "\t09,Jun/2021;10:18:14@[`{~!", expected: june9),
        Row(
            step: "step 1", rule: "leading and trailing delimiters are allowed", text: "  ,09 Jun 2021 10:18:14,  ",
            expected: june9),
        Row(
            step: "step 1", rule: "a control character is part of a token, not a delimiter",
            text: "09\u{1} Jun 2021 10:18:14", expected: june9),
        Row(
            step: "step 1", rule: "bytes above 0x7F are part of a token", text: "09 Jun\u{E9} 2021 10:18:14",
            expected: june9),
        // Step 2.1: time
        Row(
            step: "step 2.1", rule: "time fields have one or two digits", text: "09 Jun 2021 1:2:3",
            expected: utc(2021, 6, 9, 1, 2, 3)),
        Row(
            step: "step 2.1", rule: "a time may be followed by non-digits", text: "09 Jun 2021 10:18:14GMT",
            expected: june9),
        Row(
            step: "step 2.1", rule: "a fourth time field is trailing text", text: "09 Jun 2021 10:18:14:99",
            expected: june9),
        Row(
            step: "step 2.1", rule: "a time field of three digits is no time", text: "09 Jun 2021 10:18:145",
            expected: nil),
        Row(step: "step 2.1", rule: "two fields are no time", text: "09 Jun 2021 10:18", expected: nil),
        Row(
            step: "step 2.1", rule: "the first time wins", text: "09 Jun 2021 10:18:14 11:11:11 GMT",
            expected: june9),
        // Step 2.2: day of month
        Row(step: "step 2.2", rule: "a one-digit day", text: "9 Jun 2021 10:18:14", expected: june9),
        Row(
            step: "step 2.2", rule: "a day may be followed by non-digits", text: "09th Jun 2021 10:18:14",
            expected: june9),
        Row(
            step: "step 2.2", rule: "once a time is found, a second time-like token is a day",
            text: "10:18:14 11:22:33 Jun 2021", expected: utc(2021, 6, 11, 10, 18, 14)),
        Row(
            step: "step 2.2", rule: "a time is looked for before a day", text: "Jun 10:18:14 09 2021",
            expected: june9),
        // Step 2.3: month
        Row(
            step: "step 2.3", rule: "a month by its first three letters, any case", text: "09 jUNE 2021 10:18:14",
            expected: june9),
        Row(
            step: "step 2.3", rule: "anything may follow the three letters", text: "09 Junk 2021 10:18:14",
            expected: june9),
        Row(
            step: "step 2.3", rule: "fewer than three letters are no month", text: "09 Ju 2021 10:18:14", expected: nil),
        Row(step: "step 2.3", rule: "a weekday is not a month", text: "Wed 09 2021 10:18:14", expected: nil),
        // Step 2.4: year
        Row(
            step: "step 2.4", rule: "a four-digit year", text: "Jun 09 1999 10:18:14",
            expected: utc(1999, 6, 9, 10, 18, 14)),
        Row(
            step: "step 2.4", rule: "a year may be followed by non-digits", text: "09 Jun 2021AD 10:18:14",
            expected: june9),
        Row(step: "step 2.4", rule: "a one-digit year is no year", text: "09 Jun 5 10:18:14", expected: nil),
        Row(step: "step 2.4", rule: "a five-digit year is no year", text: "09 Jun 20211 10:18:14", expected: nil),
        // Steps 3-4: two-digit years
        Row(step: "step 3", rule: "70 is 1970", text: "01 Jan 70 00:00:00", expected: utc(1970, 1, 1)),
        Row(step: "step 3", rule: "99 is 1999", text: "31 Dec 99 23:59:59", expected: utc(1999, 12, 31, 23, 59, 59)),
        Row(step: "step 4", rule: "00 is 2000", text: "01 Jan 00 00:00:00", expected: utc(2000, 1, 1)),
        Row(step: "step 4", rule: "69 is 2069", text: "01 Jan 69 00:00:00", expected: utc(2069, 1, 1)),
        Row(
            step: "steps 3-4, 5", rule: "a three-digit year is taken as it is, before 1601",
            text: "01 Jan 100 00:00:00", expected: nil),
        // Step 5: ranges
        Row(step: "step 5", rule: "a missing time fails", text: "Wed, 09 Jun 2021 GMT", expected: nil),
        Row(step: "step 5", rule: "a missing day fails", text: "Jun 2021 10:18:14", expected: nil),
        Row(step: "step 5", rule: "a missing month fails", text: "09 2021 10:18:14", expected: nil),
        Row(step: "step 5", rule: "a missing year fails", text: "09 Jun 10:18:14", expected: nil),
        Row(step: "step 5", rule: "day 0 fails", text: "00 Jun 2021 10:18:14", expected: nil),
        Row(step: "step 5", rule: "day 32 fails", text: "32 Jun 2021 10:18:14", expected: nil),
        Row(step: "step 5", rule: "year 1600 fails", text: "01 Jan 1600 00:00:00", expected: nil),
        Row(
            step: "step 5", rule: "year 1601 is the first year", text: "01 Jan 1601 00:00:00", expected: utc(1601, 1, 1)
        ),
        Row(step: "step 5", rule: "hour 24 fails", text: "09 Jun 2021 24:00:00", expected: nil),
        Row(step: "step 5", rule: "minute 60 fails", text: "09 Jun 2021 10:60:00", expected: nil),
        Row(step: "step 5", rule: "second 60 fails (no leap seconds)", text: "09 Jun 2021 10:18:60", expected: nil),
        Row(step: "step 5", rule: "the empty text is no date", text: "", expected: nil),
        // Step 6: a real date, in UTC
        Row(step: "step 6", rule: "31 June does not exist", text: "31 Jun 2021 10:18:14", expected: nil),
        Row(
            step: "step 6", rule: "29 February of a leap year", text: "29 Feb 2000 00:00:00", expected: utc(2000, 2, 29)
        ),
        Row(step: "step 6", rule: "29 February of 1900 does not exist", text: "29 Feb 1900 00:00:00", expected: nil),
        Row(
            step: "step 6", rule: "time zones are ignored: the date is UTC", text: "09 Jun 2021 10:18:14 +0200 PST",
            expected: june9),
    ]

    @Test(arguments: rows) func cookieDatesParseAsRFC6265Section5_1_1Says(_ row: Row) {
        #expect(CookieDate.parse(row.text) == row.expected)
    }
}
