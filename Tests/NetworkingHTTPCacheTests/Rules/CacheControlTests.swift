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

/// `Cache-Control` parsing (RFC 9111 §5.2): directives, arguments, repeats and malformed values, as a table.
@Suite struct CacheControlTests {
    struct Row: Sendable, CustomStringConvertible {
        let values: [String]
        let noStore: Bool
        let noCache: Bool
        let maxAge: Int64?
        let problems: Int
        var description: String { values.joined(separator: " | ") }
    }

    static let rows: [Row] = [
        Row(values: ["max-age=60"], noStore: false, noCache: false, maxAge: 60, problems: 0),
        Row(values: ["MAX-AGE=60, No-Store"], noStore: true, noCache: false, maxAge: 60, problems: 0),
        Row(values: ["max-age=\"120\""], noStore: false, noCache: false, maxAge: 120, problems: 0),
        Row(values: ["max-age=10", "max-age=99"], noStore: false, noCache: false, maxAge: 10, problems: 0),
        Row(
            values: ["no-cache=\"Set-Cookie, X-Foo\", max-age=5"], noStore: false, noCache: true, maxAge: 5, problems: 0
        ),
        Row(values: ["max-age=soon"], noStore: false, noCache: false, maxAge: 0, problems: 1),
        Row(values: ["max-age=-1"], noStore: false, noCache: false, maxAge: 0, problems: 1),
        Row(values: ["max-age"], noStore: false, noCache: false, maxAge: 0, problems: 1),
        Row(
            values: ["max-age=99999999999999999999"], noStore: false, noCache: false, maxAge: 2_147_483_648, problems: 0
        ),
        Row(values: ["max-age=0000000000000042"], noStore: false, noCache: false, maxAge: 42, problems: 0),
        Row(values: [" , ,, private ,"], noStore: false, noCache: false, maxAge: nil, problems: 0),
        Row(values: ["=5, no-store"], noStore: true, noCache: false, maxAge: nil, problems: 1),
        Row(values: ["community=\"UCI, max-age=1\""], noStore: false, noCache: false, maxAge: nil, problems: 0),
        Row(values: [""], noStore: false, noCache: false, maxAge: nil, problems: 0),
    ]

    @Test(arguments: rows) func directivesAreReadAsRFC9111Says(row: Row) {
        let control = CacheControl(row.values)
        #expect(control.noStore == row.noStore)
        #expect(control.noCache == row.noCache)
        #expect(control.maxAge == row.maxAge)
        #expect(control.problems.count == row.problems)
    }

    @Test func flagsAndSharedMaxAgeAreRecorded() {
        let control = CacheControl(["public, private, must-revalidate, s-maxage=30"])
        #expect(control.isPublic && control.isPrivate && control.mustRevalidate)
        #expect(control.sharedMaxAge == 30)
        #expect(control.maxAge == nil)
    }

    @Test func everyFieldOfTheNameIsRead() {
        var fields = HTTPFields()
        fields.append(HTTPField(name: "Cache-Control", value: "private"))
        fields.append(HTTPField(name: "cache-control", value: "max-age=7"))
        #expect(CacheControl(fields: fields).maxAge == 7)
    }

    @Test(.timeLimit(.minutes(1))) func hostileValuesNeverCrash() {
        let seeds = ["max-age=60, no-cache", "no-cache=\"a, b\", private", "s-maxage=1, public, must-revalidate"]
        var maxAges = 0
        for value in CacheFuzz.values(count: 100_000, seeds: seeds, seed: 9111) {
            let control = CacheControl([value])
            if let maxAge = control.maxAge {
                #expect((0...CacheControl.maximumDeltaSeconds).contains(maxAge))
                maxAges += 1
            }
        }
        #expect(maxAges > 1_000)
    }
}
