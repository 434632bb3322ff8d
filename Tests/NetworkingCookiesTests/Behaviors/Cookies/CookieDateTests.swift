import Foundation
import Networking
import Testing
import NetworkingTestSupport

/// RFC 6265 §5.1.1 as a table, then 100,000 random and mutated inputs.
@Suite struct CookieDateTests {
    private static func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: DateComponents(year: y, month: mo, day: d, hour: h, minute: mi, second: s))!
    }

    static let valid: [(String, Date)] = [
        ("Wed, 09 Jun 2021 10:18:14 GMT", utc(2021, 6, 9, 10, 18, 14)),
        ("Sunday, 06-Nov-94 08:49:37 GMT", utc(1994, 11, 6, 8, 49, 37)),
        ("Sun Nov  6 08:49:37 1994", utc(1994, 11, 6, 8, 49, 37)),
        ("Thu, 01 Jan 1970 00:00:00 GMT", utc(1970, 1, 1)),
        ("09 jun 2021 10:18:14", utc(2021, 6, 9, 10, 18, 14)),
        ("Jun 9 21 1:2:3", utc(2021, 6, 9, 1, 2, 3)),
        ("Tue, 29 Feb 2000 23:59:59 GMT", utc(2000, 2, 29, 23, 59, 59)),
        ("Fri, 31 Dec 9999 23:59:59 GMT", utc(9999, 12, 31, 23, 59, 59)),
        ("Mon, 01 Jan 1601 00:00:00 GMT", utc(1601, 1, 1)),
        ("01-JANUARY-69 00:00:00", utc(2069, 1, 1)),
        ("01-jan-70 00:00:00", utc(1970, 1, 1)),
        ("Wed, 09 Jun 2021 10:18:14 +0200", utc(2021, 6, 9, 10, 18, 14)),  // zones are ignored
        ("1:2:3:4 09 Jun 2021", utc(2021, 6, 9, 1, 2, 3)),  // hms-time may be followed by any non-digit
    ]

    @Test(arguments: valid) func validDatesParse(_ text: String, _ expected: Date) {
        #expect(CookieDate.parse(text) == expected)
    }

    @Test(arguments: [
        "", "soon", "Wed, 09 Jun 2021", "09 Jun 2021 10:18", "Wed, 32 Jun 2021 10:18:14 GMT",
        "Wed, 00 Jun 2021 10:18:14 GMT", "Tue, 29 Feb 2001 10:18:14 GMT", "Wed, 31 Apr 2021 10:18:14 GMT",
        "Wed, 09 Jun 2021 24:00:00 GMT", "Wed, 09 Jun 2021 10:60:00 GMT", "Wed, 09 Jun 2021 10:00:60 GMT",
        "Wed, 09 Jun 1600 10:18:14 GMT", "Wed, 09 Jux 2021 10:18:14 GMT", "Wed, 09 Jun 20211 10:18:14 GMT",
        "Wed, 09 Jun 2021 100:18:14 GMT", "-1",
    ])
    func invalidDatesAreNil(_ text: String) {
        #expect(CookieDate.parse(text) == nil)
    }

    @Test func hundredThousandRandomAndMutatedInputsNeverCrashAndStayBounded() {
        var random = BehaviorFakes.SeededGenerator(seed: 6265)
        let alphabet = Array(" ,-:;/\t0123456789JanFebDecGMTWed\u{0}\u{7F}é+".unicodeScalars)
        let seeds = Self.valid.map(\.0)
        let start = ContinuousClock.now
        var parsed = 0
        for round in 0..<100_000 {
            var text: String
            if round % 2 == 0 {
                text = String(
                    String.UnicodeScalarView(
                        (0..<Int.random(in: 0...40, using: &random)).map { _ in alphabet.randomElement(using: &random)!
                        }))
            } else {
                var scalars = Array(seeds.randomElement(using: &random)!.unicodeScalars)
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let position = Int.random(in: 0...scalars.count, using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: scalars.insert(alphabet.randomElement(using: &random)!, at: position)
                    case 1: if position < scalars.count { scalars.remove(at: position) }
                    default: if position < scalars.count { scalars[position] = alphabet.randomElement(using: &random)! }
                    }
                }
                text = String(String.UnicodeScalarView(scalars))
            }
            if let date = CookieDate.parse(text) {
                parsed += 1
                #expect(date >= Self.utc(1601, 1, 1) && date <= Self.utc(9999, 12, 31, 23, 59, 59))
            }
        }
        let huge = String(repeating: "9:9:9 ", count: 50_000) + String(repeating: "\u{1}", count: 100_000)
        #expect(CookieDate.parse(huge) == nil)
        #expect(parsed > 1_000)  // the mutations keep many inputs valid: the parser is really exercised
        // Bounded time: generous, to fail only on a pathological (super-linear) parser, not a slow machine.
        #expect(ContinuousClock.now - start < .seconds(30))
    }
}
