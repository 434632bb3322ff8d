import Foundation
import Testing

@testable import NetworkingHTTP
@testable import NetworkingCore
@testable import NetworkingHTTPCache
import NetworkingTestSupport

/// RFC 9111 rules on header fields: hop-by-hop fields (§3.1), the `Vary` normalisation (§4.1) and the `304`
/// selection and update (§3.2, §4.3.4); one row per rule. Listed in `Networking.docc/Conformance.md`.
@Suite struct HTTPCacheFieldConformanceTests {
    struct HopRow: Sendable, CustomTestStringConvertible {
        let section: String
        let rule: String
        let fields: [(String, String)]
        let kept: [String]
        var testDescription: String { "\(section) \(rule)" }
    }

    static let hopRows: [HopRow] = [
        HopRow(
            section: "§3.1", rule: "the hop-by-hop fields are dropped",
            fields: [
                ("Connection", "keep-alive"), ("Keep-Alive", "timeout=5"), ("Proxy-Connection", "keep-alive"),
                ("TE", "trailers"), ("Transfer-Encoding", "chunked"), ("Upgrade", "h2c"), ("ETag", "\"1\""),
            ], kept: ["ETag"]),
        HopRow(
            section: "§3.1", rule: "fields named in Connection are dropped, in any case",
            fields: [("Connection", "X-Hop, close"), ("x-hop", "1"), ("X-Kept", "2")], kept: ["X-Kept"]),
        HopRow(
            section: "§3.1", rule: "end-to-end fields stay",
            fields: [("Cache-Control", "max-age=1"), ("Vary", "Accept")],
            kept: ["Cache-Control", "Vary"]),
    ]

    @Test(arguments: hopRows) func hopByHopFieldsAreNeitherStoredNorServed(row: HopRow) {
        var fields = HTTPFields()
        for (name, value) in row.fields { fields.append(HTTPField(name: HTTPField.Name(name), value: value)) }
        #expect(CacheStorability.withoutHopByHopFields(fields).map(\.name.rawName) == row.kept)
    }

    struct VaryRow: Sendable, CustomTestStringConvertible {
        let section: String
        let rule: String
        let name: String
        let stored: String
        let new: String
        let matches: Bool
        var testDescription: String { "\(section) \(rule)" }
    }

    static let varyRows: [VaryRow] = [
        VaryRow(
            section: "§4.1", rule: "Accept-Language: language tags in any case", name: "Accept-Language",
            stored: "en-US", new: "EN-us", matches: true),
        VaryRow(
            section: "§4.1", rule: "Accept-Encoding: content codings in any case", name: "Accept-Encoding",
            stored: "gzip, br", new: "GZIP, Br", matches: true),
        VaryRow(
            section: "§4.1", rule: "spaces around members, ; and = do not count", name: "Accept-Language",
            stored: "en-US,fr;q=0.5", new: "en-US , fr ; q=0.5", matches: true),
        VaryRow(
            section: "§4.1", rule: "weights in their shortest form", name: "Accept-Encoding",
            stored: "gzip;q=0.500", new: "gzip;q=0.5", matches: true),
        VaryRow(
            section: "§4.1", rule: "q=1 is the default", name: "Accept-Encoding", stored: "gzip;q=1.0, br",
            new: "gzip, br", matches: true),
        VaryRow(
            section: "§4.1", rule: "empty members do not count", name: "Accept-Encoding", stored: "gzip,,br",
            new: "gzip, br", matches: true),
        VaryRow(
            section: "§4.1", rule: "the order is kept: a server may prefer the first of equal weights",
            name: "Accept-Encoding", stored: "gzip, br", new: "br, gzip", matches: false),
        VaryRow(
            section: "§4.1", rule: "other weights differ", name: "Accept-Language", stored: "fr;q=0.5",
            new: "fr;q=0.6", matches: false),
        VaryRow(
            section: "§4.1", rule: "other fields are not lower-cased", name: "X-Mode", stored: "A", new: "a",
            matches: false),
    ]

    @Test(arguments: varyRows) func varyValuesAreNormalisedOnlyWhereSafe(row: VaryRow) {
        let response: HTTPFields = ["Vary": row.name]
        let names = CacheStorability.varyNames(of: response) ?? []
        let entry = HTTPCacheEntry(
            status: 200, headerFields: response, body: Data(),
            varyingRequestFields: CacheStorability.varyingFields(
                of: [HTTPField.Name(row.name): row.stored], names: names),
            requestDate: Date(), responseDate: Date())
        #expect(CacheStorability.matches(entry, request: [HTTPField.Name(row.name): row.new]) == row.matches)
    }

    struct NotModifiedRow: Sendable, CustomTestStringConvertible {
        let section: String
        let rule: String
        let stored: [String: String]
        let received: [String: String]
        /// The stored fields after the update, or `nil` when the 304 does not apply.
        let updated: [String: String]?
        var testDescription: String { "\(section) \(rule)" }
    }

    static let notModifiedRows: [NotModifiedRow] = [
        NotModifiedRow(
            section: "§4.3.4", rule: "a strong ETag in a 304 selects the same strong ETag", stored: ["ETag": "\"1\""],
            received: ["ETag": "\"1\"", "X-V": "2"], updated: ["ETag": "\"1\"", "X-V": "2"]),
        NotModifiedRow(
            section: "§4.3.4 (departure: interop with nginx's gzip)",
            rule: "a strong ETag selects the weak one the cache sent, which stays weak",
            stored: ["ETag": "W/\"1\"", "X-V": "1"], received: ["ETag": "\"1\"", "X-V": "2"],
            updated: ["ETag": "W/\"1\"", "X-V": "2"]),
        NotModifiedRow(
            section: "§4.3.4", rule: "a weak ETag naming another representation selects nothing",
            stored: ["ETag": "W/\"1\""], received: ["ETag": "W/\"2\""], updated: nil),
        NotModifiedRow(
            section: "§4.3.4, RFC 9110 §8.8.3.2", rule: "entity tags compare as octets: U+037E is not ;",
            stored: ["ETag": "\"a\u{37E}\""], received: ["ETag": "\"a;\""], updated: nil),
        NotModifiedRow(
            section: "§4.3.4, §3.2", rule: "a weak ETag selects by the weak comparison; the stored ETag is updated",
            stored: ["ETag": "\"1\""], received: ["ETag": "W/\"1\""], updated: ["ETag": "W/\"1\""]),
        NotModifiedRow(
            section: "§4.3.4", rule: "another ETag selects nothing", stored: ["ETag": "\"1\""],
            received: ["ETag": "\"2\""], updated: nil),
        NotModifiedRow(
            section: "§4.3.4", rule: "without ETag, another Last-Modified selects nothing",
            stored: ["Last-Modified": "Tue, 14 Nov 2023 12:13:20 GMT"],
            received: ["Last-Modified": "Tue, 14 Nov 2023 13:13:20 GMT"], updated: nil),
        NotModifiedRow(
            section: "§4.3.4",
            rule: "a 304 without validator updates the stored response, even one with an ETag (see the departures)",
            stored: ["ETag": "\"1\""],
            received: ["Cache-Control": "max-age=9"], updated: ["ETag": "\"1\"", "Cache-Control": "max-age=9"]),
        NotModifiedRow(
            section: "§3.2", rule: "framing and hop-by-hop fields of the 304 are not stored",
            stored: ["ETag": "\"1\"", "Content-Length": "5"],
            received: ["Content-Length": "0", "Connection": "X-Hop", "X-Hop": "1", "X-V": "3"],
            updated: ["ETag": "\"1\"", "Content-Length": "5", "X-V": "3"]),
    ]

    @Test(arguments: notModifiedRows) func a304SelectsAndUpdatesAsRFC9111Says(row: NotModifiedRow) {
        let entry = HTTPCacheEntry(
            status: 200, headerFields: HTTPFields(row.stored), body: Data(), requestDate: Date(), responseDate: Date())
        let received = HTTPFields(row.received)
        let applies = CacheValidation.notModified(received, appliesTo: entry)
        #expect(applies == (row.updated != nil))
        guard let updated = row.updated, applies else { return }
        let merged = CacheValidation.merge(stored: entry.headerFields, notModified: received)
        #expect(Dictionary(merged.map { ($0.name.rawName, $0.value) }) { $1 } == updated)
    }
}
