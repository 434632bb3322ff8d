import Foundation
import Testing

@testable import Networking
@testable import NetworkingHTTP
@testable import NetworkingCore
@testable import NetworkingAuth
@testable import NetworkingResilience
@testable import NetworkingHTTPCache
@testable import NetworkingCookies
@testable import NetworkingTransfers
@testable import NetworkingCurl
import NetworkingTesting

/// Every parser of network bytes cuts where a peer cuts: at the octets `;` `,` `=` `:` and OWS (RFC 9110 §5.6), not
/// at the Unicode characters Swift takes for them. Each row feeds one parser U+037E (GREEK QUESTION MARK, `==` to
/// `;` for Swift), U+212A (KELVIN SIGN, `lowercased()` to `k`), U+FF1B (FULLWIDTH SEMICOLON), a delimiter followed
/// by a combining mark (one `Character` with it) or a Unicode space (in Foundation's `.whitespaces`, not OWS).
/// Found by `make fuzz` (the set-cookie harness's own check, U+037E); listed in `Networking.docc/Conformance.md`.
@Suite struct OctetDelimiterTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let parser: String
        let section: String
        let rule: String
        let holds: @Sendable () -> Bool
        var testDescription: String { "\(parser) (\(section)): \(rule)" }
    }

    static let date = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT

    static let rows: [Row] = [
        Row(parser: "Set-Cookie", section: "RFC 6265 §5.2", rule: "U+037E is part of the value") {
            SetCookie.parse("a=1\u{37E}Path=/x")?.value == "1\u{37E}Path=/x"
                && SetCookie.parse("a=1\u{37E}Path=/x")?.path == nil
        },
        Row(parser: "Set-Cookie", section: "RFC 6265 §5.2", rule: "a fullwidth ; is part of the value") {
            SetCookie.parse("a=1\u{FF1B} Secure")?.isSecure == false
        },
        Row(parser: "SameSite", section: "RFC 6265bis §5.6.7", rule: "a value with U+212A is no known value") {
            CookieSameSite(attributeValue: "\u{212A}ax") == .default && CookieSameSite(attributeValue: "LAX") == .lax
        },
        Row(parser: "Cookie secrets", section: "RFC 6265 §4.2.1", rule: "a value holding U+037E is hidden whole") {
            var fields = HTTPFields()
            fields[.cookie] = "sid=abcd\u{37E}efgh"
            let request = HTTPRequest(url: URL(string: "https://api.test/")!, headerFields: fields)
            let secrets = Redaction().secrets(in: request)
            return !Redaction.scrub("echo: abcd\u{37E}efgh", secrets: secrets).contains("efgh")
        },
        Row(parser: "Redaction", section: "UTF-8", rule: "a secret followed by a combining mark is hidden") {
            Redaction.scrub("token=abcd\u{301}!", secrets: ["abcd"]) == "token=\(Redaction.placeholder)\u{301}!"
        },
        Row(parser: "Redaction", section: "UTF-8", rule: "two secrets equal only as Unicode are both hidden") {
            Redaction.scrub("a;bcd a\u{37E}bcd", secrets: ["a;bcd", "a\u{37E}bcd"]).utf8.elementsEqual(
                "\(Redaction.placeholder) \(Redaction.placeholder)".utf8)
        },
        Row(parser: "charset", section: "RFC 9110 §8.3.2", rule: "U+037E starts no parameter") {
            String.encoding(fromContentType: "text/plain\u{37E}charset=utf-16") == .utf8
                && String.encoding(fromContentType: "text/plain; CHARSET=\"utf-16\"") == .utf16
        },
        Row(parser: "HTTPField.Name", section: "RFC 9110 §5.1", rule: "names equal as octets, case aside") {
            HTTPField.Name("x\u{37E}") != HTTPField.Name("x;") && HTTPField.Name("a\u{1FEF}") != HTTPField.Name("a`")
                && HTTPField.Name("X-Key") == HTTPField.Name("x-key")
        },
        Row(parser: "HTTP-date", section: "RFC 9111 §4.2", rule: "names in any ASCII case, a fullwidth G is no G") {
            HTTPDate.parse("sun, 06 NOV 1994 08:49:37 gmt", now: date) == date
                && HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 \u{FF27}MT", now: date) == nil
        },
        Row(parser: "Cache-Control", section: "RFC 9111 §5.2", rule: "a comma before a combining mark cuts") {
            CacheControl(["max-age=60,\u{301}no-store"]).maxAge == 60
        },
        Row(parser: "Age", section: "RFC 9111 §5.1", rule: "the first member ends at the comma byte") {
            CacheFreshness.ageHeader(of: ["Age": "7200,\u{301}0"]) == 7_200
        },
        Row(parser: "Vary", section: "RFC 9111 §4.1", rule: "names are cut at the comma byte") {
            CacheStorability.varyNames(of: ["Vary": "Accept,\u{301}X"])?.first == "accept"
        },
        Row(parser: "Vary: Accept-Language", section: "RFC 9111 §4.1", rule: "U+037E starts no weight") {
            let entry = HTTPCacheEntry(
                status: 200, headerFields: ["Vary": "Accept-Language"], body: Data(),
                varyingRequestFields: ["accept-language": CacheStorability.normalizedPreferences(["fr;q=0.5"])],
                requestDate: date, responseDate: date)
            return !CacheStorability.matches(entry, request: ["Accept-Language": "fr\u{37E}q=0.5"])
                && CacheStorability.matches(entry, request: ["Accept-Language": "FR ; q=0.50"])
        },
        Row(parser: "Connection", section: "RFC 9110 §7.6.1", rule: "names are cut at the comma byte") {
            let fields: HTTPFields = ["Connection": "X-Hop,\u{301}X", "X-Hop": "1", "X-Kept": "2"]
            return CacheStorability.withoutHopByHopFields(fields).map(\.name.rawName) == ["X-Kept"]
        },
        Row(parser: "ETag (304)", section: "RFC 9110 §8.8.3.2", rule: "entity tags compare as octets") {
            let entry = HTTPCacheEntry(
                status: 200, headerFields: ["ETag": "\"v;\""], body: Data(), requestDate: date, responseDate: date)
            return !CacheValidation.notModified(["ETag": "\"v\u{37E}\""], appliesTo: entry)
        },
        Row(parser: "Cache-Status", section: "RFC 9211 §2", rule: "U+037E starts no parameter") {
            let response = HTTPResponse(status: 200, headerFields: ["Cache-Status": "Networking\u{37E} hit"])
            return HTTPCacheBehavior.outcome(of: response) == nil
                && HTTPCacheBehavior.outcome(
                    of: HTTPResponse(status: 200, headerFields: ["Cache-Status": "Networking; hit"]))
                    == .hit
        },
        Row(parser: "event-stream type", section: "RFC 9110 §8.3.1", rule: "U+037E starts no parameter") {
            !EventStreamContentTypeError.isEventStream("text/event-stream\u{37E} charset=utf-8")
                && EventStreamContentTypeError.isEventStream("Text/Event-Stream ; charset=utf-8")
        },
        Row(parser: "Content-Range", section: "RFC 9110 §14.4", rule: "a Unicode space is no OWS") {
            DownloadResume.parse("\u{3000}bytes 0-9/10") == nil && DownloadResume.parse(" BYTES 0-9/10")?.total == 10
        },
        Row(parser: "Retry-After", section: "RFC 9110 §10.2.3", rule: "a no-break space is no OWS") {
            RetryAfter("\u{A0}120", now: date) == nil && RetryAfter(" 120\t", now: date) == .seconds(120)
        },
        Row(parser: "Content-Encoding", section: "RFC 9110 §8.4", rule: "codings are cut at the comma byte") {
            let response = HTTPResponse(status: 200, headerFields: ["Content-Encoding": "GZIP,\u{301}br"])
            return CurlTransfer.codings(of: response) == ["gzip", "\u{301}br"]
        },
        Row(parser: "If-None-Match (fixtures)", section: "RFC 9110 §13.1.2", rule: "entity tags compare as octets") {
            !FixtureTransport.matches("\"a\u{37E}\"", tag: "\"a;\"")
                && FixtureTransport.matches(" W/\"a;\" ", tag: "\"a;\"")
        },
        Row(parser: "Basic credential", section: "RFC 7617 §2", rule: "a colon before a combining mark is a colon") {
            (try? AuthorizationScheme.basicCredential(user: "a:\u{301}b", password: "p")) == nil
        },
    ]

    @Test(arguments: rows) func eachParserCutsAtTheOctetsAPeerCutsAt(row: Row) {
        #expect(row.holds())
    }
}
