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

/// Freshness lifetime and current age (RFC 9111 §4.2), as tables.
@Suite struct CacheFreshnessTests {
    /// 2023-11-14 22:13:20 GMT.
    static let arrived = Date(timeIntervalSince1970: 1_700_000_000)
    static let arrivedText = "Tue, 14 Nov 2023 22:13:20 GMT"

    static func entry(_ fields: HTTPFields, status: Int = 200, sent: Date = arrived) -> HTTPCacheEntry {
        HTTPCacheEntry(
            status: status, headerFields: fields, body: Data(), requestDate: sent, responseDate: arrived)
    }

    struct LifetimeRow: Sendable, CustomStringConvertible {
        let fields: [String: String]
        let status: Int
        let lifetime: Int64
        var description: String { "\(status) \(fields)" }
    }

    static let lifetimeRows: [LifetimeRow] = [
        LifetimeRow(fields: ["Cache-Control": "max-age=60"], status: 200, lifetime: 60),
        LifetimeRow(
            fields: ["Cache-Control": "max-age=60", "Expires": "Tue, 14 Nov 2023 23:13:20 GMT", "Date": arrivedText],
            status: 200, lifetime: 60),
        LifetimeRow(fields: ["Cache-Control": "s-maxage=60"], status: 200, lifetime: 0),
        LifetimeRow(
            fields: ["Expires": "Tue, 14 Nov 2023 23:13:20 GMT", "Date": arrivedText], status: 200, lifetime: 3_600),
        LifetimeRow(fields: ["Expires": "Tue, 14 Nov 2023 23:13:20 GMT"], status: 200, lifetime: 3_600),
        LifetimeRow(
            fields: ["Expires": "0", "Last-Modified": "Tue, 14 Nov 2023 12:13:20 GMT"], status: 200, lifetime: 0),
        LifetimeRow(
            fields: ["Expires": "Mon, 13 Nov 2023 22:13:20 GMT", "Date": arrivedText], status: 200, lifetime: 0),
        LifetimeRow(
            fields: ["Last-Modified": "Tue, 14 Nov 2023 12:13:20 GMT", "Date": arrivedText], status: 200,
            lifetime: 3_600),
        LifetimeRow(
            fields: ["Last-Modified": "Thu, 01 Jan 1970 00:00:00 GMT", "Date": arrivedText], status: 200,
            lifetime: 86_400),
        LifetimeRow(fields: ["Last-Modified": "Tue, 14 Nov 2023 12:13:20 GMT"], status: 201, lifetime: 0),
        LifetimeRow(fields: ["Last-Modified": "not a date"], status: 200, lifetime: 0),
        LifetimeRow(fields: [:], status: 200, lifetime: 0),
        LifetimeRow(
            fields: ["Cache-Control": "max-age=abc", "Expires": "Tue, 14 Nov 2023 23:13:20 GMT"], status: 200,
            lifetime: 0),
    ]

    @Test(arguments: lifetimeRows) func lifetimeFollowsMaxAgeThenExpiresThenTheHeuristic(row: LifetimeRow) {
        #expect(CacheFreshness.lifetime(of: Self.entry(HTTPFields(row.fields), status: row.status)) == row.lifetime)
    }

    /// RFC 9111 §5.2.2.10: a shared cache takes `s-maxage` over `max-age` and `Expires`; a private one ignores it.
    @Test(arguments: [
        (["Cache-Control": "s-maxage=60"], Int64(60), Int64(0)),
        (["Cache-Control": "max-age=10, s-maxage=60"], 60, 10),
        (["Cache-Control": "s-maxage=5", "Expires": "Tue, 14 Nov 2023 23:13:20 GMT", "Date": arrivedText], 5, 3_600),
    ])
    func aSharedCacheReadsSMaxAgeFirst(fields: [String: String], shared: Int64, privately: Int64) {
        let entry = Self.entry(HTTPFields(fields))
        #expect(CacheFreshness.lifetime(of: entry, shared: true) == shared)
        #expect(CacheFreshness.lifetime(of: entry, shared: false) == privately)
    }

    struct AgeRow: Sendable, CustomStringConvertible {
        let fields: [String: String]
        let sentBefore: TimeInterval
        let residentFor: TimeInterval
        let age: Int64
        var description: String { "\(fields) sent \(sentBefore) s before, resident \(residentFor) s" }
    }

    static let ageRows: [AgeRow] = [
        AgeRow(fields: [:], sentBefore: 0, residentFor: 0, age: 0),
        AgeRow(fields: [:], sentBefore: 0, residentFor: 30, age: 30),
        AgeRow(fields: ["Age": "100"], sentBefore: 2, residentFor: 10, age: 112),
        AgeRow(fields: ["Date": "Tue, 14 Nov 2023 22:12:20 GMT"], sentBefore: 0, residentFor: 5, age: 65),
        AgeRow(
            fields: ["Date": "Tue, 14 Nov 2023 22:12:20 GMT", "Age": "100"], sentBefore: 0, residentFor: 0, age: 100),
        AgeRow(fields: ["Date": "Wed, 15 Nov 2023 22:13:20 GMT"], sentBefore: 0, residentFor: 0, age: 0),
        AgeRow(fields: ["Age": "-5"], sentBefore: 0, residentFor: 0, age: 0),
        AgeRow(fields: ["Age": "lots"], sentBefore: 0, residentFor: 7, age: 7),
        AgeRow(fields: ["Age": "99999999999999999999"], sentBefore: 0, residentFor: 0, age: 2_147_483_648),
        AgeRow(fields: [:], sentBefore: 0, residentFor: -50, age: 0),
    ]

    @Test(arguments: ageRows) func currentAgeFollowsRFC9111Section4_2_3(row: AgeRow) {
        let entry = Self.entry(HTTPFields(row.fields), sent: Self.arrived.addingTimeInterval(-row.sentBefore))
        #expect(CacheFreshness.currentAge(of: entry, now: Self.arrived.addingTimeInterval(row.residentFor)) == row.age)
    }

    @Test func freshMeansYoungerThanTheLifetime() {
        let entry = Self.entry(["Cache-Control": "max-age=60"])
        #expect(CacheFreshness.isFresh(entry, now: Self.arrived.addingTimeInterval(59)))
        #expect(!CacheFreshness.isFresh(entry, now: Self.arrived.addingTimeInterval(60)))
    }

    @Test(.timeLimit(.minutes(1))) func hostileHeadersNeverCrash() {
        let seeds = ["Tue, 14 Nov 2023 23:13:20 GMT", "max-age=60", "120"]
        let values = CacheFuzz.values(count: 100_000, seeds: seeds, seed: 4_2_3)
        var fresh = 0
        for (index, value) in values.enumerated() {
            let name: HTTPField.Name = ["Expires", "Date", "Age", "Last-Modified", "Cache-Control"][index % 5]
            var fields = HTTPFields()
            fields.append(HTTPField(name: name, value: value))
            let entry = Self.entry(fields)
            let lifetime = CacheFreshness.lifetime(of: entry)
            let age = CacheFreshness.currentAge(of: entry, now: Self.arrived.addingTimeInterval(1))
            #expect(lifetime >= 0 && age >= 0)
            if age < lifetime { fresh += 1 }
        }
        #expect(fresh > 0)
    }
}
