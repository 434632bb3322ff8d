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

/// What a private and a shared cache may store (RFC 9111 §3, §3.5, §5.2.2.7) and `Vary` matching (§4.1), as tables.
@Suite struct CacheStorabilityTests {
    struct Row: Sendable, CustomStringConvertible {
        let method: HTTPMethod
        let request: [String: String]
        let status: Int
        let response: [String: String]
        /// Whether a private cache stores it.
        let privately: Bool
        /// Whether a shared cache stores it.
        let shared: Bool
        /// The rule, cited.
        let rule: String
        var description: String { "\(rule): \(method.rawValue) \(request) -> \(status) \(response)" }
    }

    static let rows: [Row] = [
        Row(method: .get, request: [:], status: 200, response: [:], privately: true, shared: true, rule: "§3"),
        Row(
            method: .get, request: [:], status: 200, response: ["Cache-Control": "private, max-age=60"],
            privately: true, shared: false, rule: "§5.2.2.7 private: a shared cache must not store"),
        Row(method: .get, request: [:], status: 404, response: [:], privately: true, shared: true, rule: "§3"),
        Row(
            method: .get, request: [:], status: 206, response: ["Cache-Control": "max-age=60"], privately: false,
            shared: false, rule: "§3.3 partial content is not stored (deliberate: ranges are not cached)"),
        Row(
            method: .get, request: [:], status: 201, response: ["Cache-Control": "max-age=60"], privately: true,
            shared: true, rule: "§3 explicit freshness makes an understood status storable"),
        Row(
            method: .get, request: [:], status: 201, response: [:], privately: false, shared: false,
            rule: "§3 without explicit freshness, only heuristically cacheable statuses"),
        Row(
            method: .post, request: [:], status: 200, response: ["Cache-Control": "max-age=60"], privately: false,
            shared: false, rule: "§3 only GET"),
        Row(
            method: .head, request: [:], status: 200, response: ["Cache-Control": "max-age=60"], privately: false,
            shared: false, rule: "§3 only GET"),
        Row(
            method: .get, request: [:], status: 200, response: ["Cache-Control": "no-store, max-age=60"],
            privately: false, shared: false, rule: "§5.2.2.5 no-store"),
        Row(
            method: .get, request: ["Cache-Control": "no-store"], status: 200, response: [:], privately: false,
            shared: false, rule: "§5.2.1.5 request no-store"),
        Row(
            method: .get, request: [:], status: 200, response: ["Vary": "Accept, *"], privately: false, shared: false,
            rule: "§4.1 Vary: * never matches"),
        Row(
            method: .get, request: ["Authorization": "Bearer t"], status: 200,
            response: ["Cache-Control": "max-age=60"], privately: true, shared: false,
            rule: "§3.5 Authorization: a shared cache needs public, must-revalidate or s-maxage"),
        Row(
            method: .get, request: ["Authorization": "Bearer t"], status: 200,
            response: ["Cache-Control": "private, max-age=60"], privately: true, shared: false, rule: "§3.5, §5.2.2.7"),
        Row(
            method: .get, request: ["Authorization": "Bearer t"], status: 200,
            response: ["Cache-Control": "public, max-age=60"], privately: true, shared: true, rule: "§3.5 public"),
        Row(
            method: .get, request: ["Authorization": "Bearer t"], status: 200,
            response: ["Cache-Control": "must-revalidate"], privately: true, shared: true,
            rule: "§3.5 must-revalidate"),
        Row(
            method: .get, request: ["Authorization": "Bearer t"], status: 200,
            response: ["Cache-Control": "s-maxage=5"], privately: true, shared: true, rule: "§3.5 s-maxage"),
        Row(
            method: .get, request: ["Cookie": "session=1"], status: 200, response: ["Cache-Control": "max-age=60"],
            privately: true, shared: false,
            rule: "§3.5 held to every credential, not only Authorization (deliberately stricter)"),
        Row(
            method: .get, request: [:], status: 200,
            response: ["Cache-Control": "public, max-age=60", "Set-Cookie": "s=1"], privately: true, shared: false,
            rule: "a shared cache never stores Set-Cookie (deliberately stricter than §7)"),
    ]

    @Test(arguments: rows) func storabilityFollowsRFC9111Section3(row: Row) {
        let request = HTTPRequest(
            method: row.method, url: URL(string: "https://api.test/items")!, headerFields: HTTPFields(row.request))
        let inPrivate = CacheStorability.reasonNotToStore(
            request: request, status: row.status, response: HTTPFields(row.response), shared: false)
        let inShared = CacheStorability.reasonNotToStore(
            request: request, status: row.status, response: HTTPFields(row.response), shared: true)
        #expect((inPrivate == nil) == row.privately, "private: \(inPrivate ?? "storable")")
        #expect((inShared == nil) == row.shared, "shared: \(inShared ?? "storable")")
    }

    @Test func aFieldMarkedSensitiveIsACredentialForASharedCache() {
        var fields = HTTPFields()
        fields[sensitive: "X-API-Key"] = "k"
        let request = HTTPRequest(url: URL(string: "https://api.test/items")!, headerFields: fields)
        let reason = CacheStorability.reasonNotToStore(
            request: request, status: 200, response: ["Cache-Control": "max-age=60"], shared: true)
        #expect(reason?.contains("X-API-Key") == true)
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
            // Bytes: a name may start with a combining mark, which would hide a space before it in a Character.
            #expect(
                names.allSatisfy {
                    !$0.isEmpty && !$0.utf8.contains(UInt8(ascii: ",")) && $0.utf8.first != 0x20 && $0.utf8.last != 0x20
                })
            _ = CacheStorability.varyingFields(of: ["Accept": value], names: names)
        }
        #expect(starred > 0)
    }
}
