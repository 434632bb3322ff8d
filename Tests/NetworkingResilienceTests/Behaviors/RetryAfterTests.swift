import Foundation
import Networking
import Testing
import NetworkingTestSupport

/// `Retry-After` parsing: seconds, the three HTTP-date forms, and hostile values that must never crash.
@Suite struct RetryAfterTests {
    /// 2023-11-14 22:13:20 GMT, the default start date of `TestClock`.
    static let now = Date(timeIntervalSince1970: 1_700_000_000)
    /// The RFC 9110 example date, Sun, 06 Nov 1994 08:49:37 GMT.
    static let rfcExample = Date(timeIntervalSince1970: 784_111_777)

    @Test(arguments: [("120", Int64(120)), ("0", 0), (" 7 ", 7), ("007", 7), ("999999999", 999_999_999)])
    func secondsAreReadAsWholeSeconds(value: String, seconds: Int64) throws {
        let parsed = try #require(RetryAfter(value, now: Self.now))
        #expect(parsed == .seconds(seconds))
        #expect(parsed.delay(from: Self.now) == .seconds(seconds))
    }

    @Test(arguments: ["-5", "-0", "-99999999999999999999999"])
    func negativeSecondsMeanNoWait(value: String) throws {
        let parsed = try #require(RetryAfter(value, now: Self.now))
        #expect(parsed == .seconds(0))
        #expect(parsed.delay(from: Self.now) == .zero)
    }

    @Test func secondsTooLargeForInt64SaturateInsteadOfTrapping() throws {
        let parsed = try #require(RetryAfter("99999999999999999999999999", now: Self.now))
        #expect(parsed == .seconds(.max))
        #expect(parsed.delay(from: Self.now) == .seconds(Int64.max))
    }

    @Test(arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT",  // IMF-fixdate
        "Sunday, 06-Nov-94 08:49:37 GMT",  // RFC 850
        "Sun Nov  6 08:49:37 1994",  // asctime
        "  Sun, 06 Nov 1994 08:49:37 GMT  ",
        "sun, 06 nov 1994 08:49:37 GMT",
    ])
    func everyHTTPDateFormReadsTheSameInstant(value: String) throws {
        #expect(RetryAfter(value, now: Self.now) == .date(Self.rfcExample))
    }

    @Test func aLeapDayIsAValidDate() {
        #expect(
            RetryAfter("Thu, 29 Feb 2024 00:00:00 GMT", now: Self.now)
                == .date(Date(timeIntervalSince1970: 1_709_164_800)))
    }

    @Test func rfc850TwoDigitYearsStayWithinFiftyYearsOfNow() {
        // Seen from 2023: "30" is 2030 (7 years ahead), "94" is 1994 (2094 would be 71 years ahead).
        #expect(
            RetryAfter("Tuesday, 01-Jan-30 00:00:00 GMT", now: Self.now)
                == .date(Date(timeIntervalSince1970: 1_893_456_000)))
        #expect(RetryAfter("Sunday, 06-Nov-94 08:49:37 GMT", now: Self.now) == .date(Self.rfcExample))
    }

    @Test func aFutureDateGivesTheExactTimeUntilIt() throws {
        let parsed = try #require(RetryAfter("Tue, 14 Nov 2023 22:13:30 GMT", now: Self.now))
        #expect(parsed.delay(from: Self.now) == .seconds(10))
        #expect(parsed.delay(from: Self.now.addingTimeInterval(4)) == .seconds(6))
    }

    @Test func aPastDateMeansNoWait() throws {
        let parsed = try #require(RetryAfter("Tue, 14 Nov 2023 21:13:20 GMT", now: Self.now))
        #expect(parsed.delay(from: Self.now) == .zero)
        #expect(RetryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: Self.now)?.delay(from: Self.now) == .zero)
    }

    @Test func aFarFutureDateGivesALongWaitWithoutTrapping() throws {
        let parsed = try #require(RetryAfter("Fri, 31 Dec 9999 23:59:59 GMT", now: Self.now))
        #expect(parsed == .date(Date(timeIntervalSince1970: 253_402_300_799)))
        #expect(parsed.delay(from: Self.now) == .seconds(253_402_300_799 - 1_700_000_000))
    }

    @Test(arguments: [
        "", "   ", "soon", "1.5", "5s", "+5", "- 5", "1e3", "0x10", "١٢",
        "Sun, 06 Nov 1994 08:49:37 UTC",  // not GMT
        "Sun, 06 Nov 94 08:49:37 GMT",  // IMF-fixdate needs four year digits
        "Sun, 32 Nov 1994 08:49:37 GMT",  // no 32nd
        "Wed, 29 Feb 2023 00:00:00 GMT",  // 2023 is not a leap year
        "Sun, 06 Nov 1994 24:00:00 GMT",  // no hour 24
        "Sun, 06 Nov 1994 08:60:00 GMT",  // no minute 60
        "Sun, 06 Nov 1994 8:49:37 GMT",  // hours need two digits
        "Sun, 06 Foo 1994 08:49:37 GMT",  // no such month
        "Funday, 06-Nov-94 08:49:37 GMT",  // no such day
        "06 Nov 1994 08:49:37 GMT",  // day name missing
        "Sunday, 06-Nov-1994 08:49:37 GMT",  // RFC 850 has two year digits
        "Sun Nov 6 08:49:37",  // asctime without the year
        "Sun, 06 Nov 1994 08:49:37 GMT extra",
    ])
    func garbageIsNotARetryAfterValue(value: String) {
        #expect(RetryAfter(value, now: Self.now) == nil)
    }
}
