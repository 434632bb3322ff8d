import Foundation
import Testing

@testable import Networking

/// What a private cache may store (RFC 9111 §3, §3.5) and `Vary` matching (§4.1), as tables.
@Suite struct CacheStorabilityTests {
    struct Row: Sendable, CustomStringConvertible {
        let method: HTTPMethod
        let request: [String: String]
        let status: Int
        let response: [String: String]
        let storable: Bool
        var description: String { "\(method.rawValue) \(request) -> \(status) \(response)" }
    }

    static let rows: [Row] = [
        Row(method: .get, request: [:], status: 200, response: [:], storable: true),
        Row(
            method: .get, request: [:], status: 200, response: ["Cache-Control": "private, max-age=60"], storable: true),
        Row(method: .get, request: [:], status: 404, response: [:], storable: true),
        Row(method: .get, request: [:], status: 206, response: ["Cache-Control": "max-age=60"], storable: false),
        Row(method: .get, request: [:], status: 201, response: ["Cache-Control": "max-age=60"], storable: false),
        Row(method: .post, request: [:], status: 200, response: ["Cache-Control": "max-age=60"], storable: false),
        Row(method: .head, request: [:], status: 200, response: ["Cache-Control": "max-age=60"], storable: false),
        Row(
            method: .get, request: [:], status: 200, response: ["Cache-Control": "no-store, max-age=60"],
            storable: false),
        Row(method: .get, request: ["Cache-Control": "no-store"], status: 200, response: [:], storable: false),
        Row(method: .get, request: [:], status: 200, response: ["Vary": "Accept, *"], storable: false),
        Row(
            method: .get, request: ["Authorization": "Bearer t"], status: 200,
            response: ["Cache-Control": "max-age=60"], storable: false),
        Row(
            method: .get, request: ["Authorization": "Bearer t"], status: 200,
            response: ["Cache-Control": "private, max-age=60"], storable: false),
        Row(
            method: .get, request: ["Authorization": "Bearer t"], status: 200,
            response: ["Cache-Control": "public, max-age=60"], storable: true),
        Row(
            method: .get, request: ["Authorization": "Bearer t"], status: 200,
            response: ["Cache-Control": "must-revalidate"], storable: true),
        Row(
            method: .get, request: ["Authorization": "Bearer t"], status: 200,
            response: ["Cache-Control": "s-maxage=5"], storable: true),
    ]

    @Test(arguments: rows) func storabilityFollowsRFC9111Section3(row: Row) {
        let request = HTTPRequest(
            method: row.method, url: URL(string: "https://api.test/items")!, headerFields: HTTPFields(row.request))
        let reason = CacheStorability.reasonNotToStore(
            request: request, status: row.status, response: HTTPFields(row.response))
        #expect((reason == nil) == row.storable, "\(reason ?? "storable")")
    }

    @Test func varyNamesAreLowerCasedDeduplicatedAndStarIsNil() {
        #expect(
            CacheStorability.varyNames(of: ["Vary": "Accept, accept-LANGUAGE ,Accept"]) == [
                "accept", "accept-language",
            ])
        #expect(CacheStorability.varyNames(of: [:]) == [])
        #expect(CacheStorability.varyNames(of: ["Vary": "*"]) == nil)
    }

    struct VaryRow: Sendable, CustomStringConvertible {
        let vary: String
        let stored: [String: String]
        let new: [String: String]
        let matches: Bool
        var description: String { "Vary: \(vary); \(stored) vs \(new)" }
    }

    static let varyRows: [VaryRow] = [
        VaryRow(
            vary: "Accept-Language", stored: ["Accept-Language": "fr"], new: ["Accept-Language": "fr"], matches: true),
        VaryRow(
            vary: "Accept-Language", stored: ["Accept-Language": "fr"], new: ["accept-language": "fr"], matches: true),
        VaryRow(
            vary: "Accept-Language", stored: ["Accept-Language": "fr"], new: ["Accept-Language": "en"], matches: false),
        VaryRow(vary: "Accept-Language", stored: ["Accept-Language": "fr"], new: [:], matches: false),
        VaryRow(vary: "Accept-Language", stored: [:], new: [:], matches: true),
        VaryRow(vary: "Accept", stored: ["Accept": "a,b"], new: ["Accept": "a, b"], matches: true),
        VaryRow(vary: "", stored: ["X": "1"], new: ["X": "2"], matches: true),
    ]

    @Test(arguments: varyRows) func varyMatchesOnlyTheSameNormalizedValues(row: VaryRow) {
        let response: HTTPFields = row.vary.isEmpty ? [:] : ["Vary": row.vary]
        let names = CacheStorability.varyNames(of: response) ?? []
        let entry = HTTPCacheEntry(
            status: 200, headerFields: response, body: Data(),
            varyingRequestFields: CacheStorability.varyingFields(of: HTTPFields(row.stored), names: names),
            requestDate: Date(), responseDate: Date())
        #expect(CacheStorability.matches(entry, request: HTTPFields(row.new)) == row.matches)
    }

    @Test(.timeLimit(.minutes(1))) func hostileVaryValuesNeverCrash() {
        let seeds = ["Accept, Accept-Language", "*", "accept-encoding ,  ,x"]
        var starred = 0
        for value in CacheFuzz.values(count: 100_000, seeds: seeds, seed: 41) {
            guard let names = CacheStorability.varyNames(of: ["Vary": value]) else {
                starred += 1
                continue
            }
            #expect(names.allSatisfy { !$0.isEmpty && !$0.contains(",") && $0.first != " " && $0.last != " " })
            _ = CacheStorability.varyingFields(of: ["Accept": value], names: names)
        }
        #expect(starred > 0)
    }
}
