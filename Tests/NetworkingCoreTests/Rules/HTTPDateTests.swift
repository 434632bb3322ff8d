import Foundation
import Testing

@testable import Networking
@testable import NetworkingHTTP
@testable import NetworkingCore
@testable import NetworkingTLS
@testable import NetworkingURLSession
@testable import NetworkingAuth
@testable import NetworkingResilience
@testable import NetworkingHTTPCache
@testable import NetworkingCookies
@testable import NetworkingObservability
@testable import NetworkingTransfers
import NetworkingTestSupport

/// The shared HTTP-date parser (RFC 9110 §5.6.7): the three forms, impossible dates, and hostile text.
@Suite struct HTTPDateTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)
    static let rfcExample = Date(timeIntervalSince1970: 784_111_777)

    @Test(arguments: [
        ("Sun, 06 Nov 1994 08:49:37 GMT", rfcExample),
        ("Sunday, 06-Nov-94 08:49:37 GMT", rfcExample),
        ("Sun Nov  6 08:49:37 1994", rfcExample),
        ("Thu, 01 Jan 1970 00:00:00 GMT", Date(timeIntervalSince1970: 0)),
        ("Tue, 29 Feb 2000 12:00:00 GMT", Date(timeIntervalSince1970: 951_825_600)),
    ])
    func validDatesParse(text: String, expected: Date) {
        #expect(HTTPDate.parse(text, now: Self.now) == expected)
    }

    @Test(arguments: [
        "0", "-1", "", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 30 Feb 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun 06 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 94 08:49:37 GMT", "Sun, 06 Nov 1994 8:49:37 GMT", "Sun, 29 Feb 1900 08:49:37 GMT",
    ])
    func malformedDatesAreNil(text: String) {
        #expect(HTTPDate.parse(text, now: Self.now) == nil)
    }

    @Test(.timeLimit(.minutes(1))) func hostileTextNeverCrashes() {
        let seeds = [
            "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
            "Fri, 31 Dec 9999 23:59:59 GMT",
        ]
        var parsed = 0
        for text in CacheFuzz.values(count: 100_000, seeds: seeds, seed: 5_6_7) {
            if let date = HTTPDate.parse(text, now: Self.now) {
                #expect(date.timeIntervalSince1970.isFinite)
                parsed += 1
            }
        }
        #expect(parsed > 0)
    }
}
