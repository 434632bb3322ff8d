import Foundation
import Networking
import Testing
import NetworkingTestSupport

/// RFC 6265 §5.3 (the storage model, as ``Cookie/init(_:from:at:)`` applies it to one received cookie) with the
/// rules of draft-ietf-httpbis-rfc6265bis-22 §5.7 the library follows (`Secure` over http, the `__Secure-` and
/// `__Host-` prefixes): one row per rule. Listed in `Networking.docc/Conformance.md`.
@Suite struct CookieStorageConformanceTests {
    /// What a stored cookie's scope is: domain, host-only flag, path.
    struct Scope: Sendable, Equatable, CustomStringConvertible {
        let domain: String
        let hostOnly: Bool
        let path: String
        var description: String { "\(domain)\(hostOnly ? " (host-only)" : "") \(path)" }
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let section: String
        let rule: String
        let field: String
        let from: String
        let expected: Scope?
        var testDescription: String { "\(section) \(rule)" }
    }

    private static func host(_ domain: String, _ path: String = "/") -> Scope {
        Scope(domain: domain, hostOnly: true, path: path)
    }
    private static func domain(_ domain: String, _ path: String = "/") -> Scope {
        Scope(domain: domain, hostOnly: false, path: path)
    }

    static let rows: [Row] = [
        // §5.3 steps 4-6: domain and host-only flag
        Row(
            section: "§5.3 step 6", rule: "without Domain, host-only for the request host", field: "a=1",
            from: "https://WWW.Example.com/", expected: host("www.example.com")),
        Row(
            section: "§5.3 step 6", rule: "a Domain the host domain-matches", field: "a=1; Domain=example.com",
            from: "https://www.example.com/", expected: domain("example.com")),
        Row(
            section: "§5.3 step 6", rule: "a Domain equal to the host is not host-only",
            field: "a=1; Domain=www.example.com", from: "https://www.example.com/", expected: domain("www.example.com")),
        Row(
            section: "§5.3 step 6", rule: "another site's Domain is refused", field: "a=1; Domain=example.org",
            from: "https://www.example.com/", expected: nil),
        Row(
            section: "§5.3 step 6", rule: "a subdomain of the host is refused", field: "a=1; Domain=a.www.example.com",
            from: "https://www.example.com/", expected: nil),
        Row(
            section: "§5.3 step 6", rule: "a sibling is refused", field: "a=1; Domain=api.example.com",
            from: "https://www.example.com/", expected: nil),
        Row(
            section: "§5.3 step 6", rule: "a suffix that is not a label is refused", field: "a=1; Domain=ample.com",
            from: "https://www.example.com/", expected: nil),
        Row(
            section: "§5.3 step 6", rule: "an IP address host with its own address", field: "a=1; Domain=127.0.0.1",
            from: "http://127.0.0.1/", expected: domain("127.0.0.1")),
        Row(
            section: "§5.3 step 6", rule: "an IP address host with a part of it is refused", field: "a=1; Domain=0.0.1",
            from: "http://127.0.0.1/", expected: nil),
        Row(
            section: "§5.3 step 6", rule: "an IP address host with a name is refused", field: "a=1; Domain=localhost",
            from: "http://127.0.0.1/", expected: nil),
        Row(
            section: "§5.3 step 5", rule: "a bare top-level domain is a public suffix: refused",
            field: "a=1; Domain=com", from: "https://www.example.com/", expected: nil),
        Row(
            section: "§5.3 step 5", rule: "a dotted bare top-level domain too", field: "a=1; Domain=.COM",
            from: "https://www.example.com/", expected: nil),
        Row(
            section: "§5.3 step 5", rule: "a public suffix that is the host itself becomes host-only",
            field: "a=1; Domain=localhost", from: "http://localhost/", expected: host("localhost")),
        Row(
            section: "6265bis §5.7 step 8", rule: "a Domain that is not ASCII is refused",
            field: "a=1; Domain=b\u{FC}cher.example", from: "https://xn--bcher-kva.example/", expected: nil),
        // §5.3 step 7: path
        Row(
            section: "§5.3 step 7", rule: "without Path, the default path", field: "a=1",
            from: "https://a.example/account/login", expected: host("a.example", "/account")),
        Row(
            section: "§5.3 step 7, §5.2.4", rule: "a Path not starting with / is the default path",
            field: "a=1; Path=docs", from: "https://a.example/account/login", expected: host("a.example", "/account")),
        Row(
            section: "§5.3 step 7, §5.2.4", rule: "an empty Path is the default path", field: "a=1; Path=",
            from: "https://a.example/x/y", expected: host("a.example", "/x")),
        Row(
            section: "§5.3 step 7", rule: "a Path need not be above the request path", field: "a=1; Path=/elsewhere",
            from: "https://a.example/x/y", expected: host("a.example", "/elsewhere")),
        // §5.3 step 8, 6265bis §5.7 step 13: Secure
        Row(
            section: "§5.3 step 8", rule: "Secure over https is stored", field: "a=1; Secure",
            from: "https://a.example/", expected: host("a.example")),
        Row(
            section: "6265bis §5.7 step 13", rule: "Secure over http is refused", field: "a=1; Secure",
            from: "http://a.example/", expected: nil),
        // §5.3 step 9-10: HttpOnly
        Row(
            section: "§5.3 steps 9-10", rule: "an HTTP API stores HttpOnly cookies", field: "a=1; HttpOnly",
            from: "http://a.example/", expected: host("a.example")),
        // 6265bis §5.7 steps 20-21: prefixes
        Row(
            section: "6265bis §5.7 step 20", rule: "__Secure- with Secure over https",
            field: "__Secure-a=1; Secure; Domain=a.example", from: "https://www.a.example/",
            expected: domain("a.example")),
        Row(
            section: "6265bis §5.7 step 20", rule: "__Secure- without Secure is refused", field: "__Secure-a=1",
            from: "https://a.example/", expected: nil),
        Row(
            section: "6265bis §5.7 step 20, §5.4", rule: "the prefix is matched in any case", field: "__SECURE-a=1",
            from: "https://a.example/", expected: nil),
        Row(
            section: "6265bis §5.7 step 21", rule: "__Host- with Secure, no Domain, Path=/",
            field: "__Host-a=1; Secure; Path=/", from: "https://a.example/x/y", expected: host("a.example")),
        Row(
            section: "6265bis §5.7 step 21", rule: "__Host- without Path is refused, even where / is the default",
            field: "__Host-a=1; Secure", from: "https://a.example/", expected: nil),
        Row(
            section: "6265bis §5.7 step 21", rule: "__Host- with another Path is refused",
            field: "__Host-a=1; Secure; Path=/x", from: "https://a.example/", expected: nil),
        Row(
            section: "6265bis §5.7 step 21", rule: "__Host- with a Domain is refused",
            field: "__Host-a=1; Secure; Path=/; Domain=a.example", from: "https://a.example/", expected: nil),
        Row(
            section: "6265bis §5.7 step 21", rule: "__Host- without Secure is refused", field: "__host-a=1; Path=/",
            from: "https://a.example/", expected: nil),
        Row(
            section: "6265bis §5.7 step 21, §5.4", rule: "the prefix is matched in any case",
            field: "__HoSt-a=1; Secure; Path=/", from: "https://a.example/", expected: host("a.example")),
        Row(
            section: "6265bis §5.7 steps 20-21", rule: "a prefix elsewhere in the name is no prefix",
            field: "x__Host-a=1", from: "http://a.example/", expected: host("a.example")),
    ]

    @Test(arguments: rows) func receivedCookiesAreStoredAsRFC6265Section5_3Says(_ row: Row) {
        let cookie = Cookie(SetCookie.parse(row.field)!, from: URL(string: row.from)!, at: Date())
        #expect(cookie.map { Scope(domain: $0.domain, hostOnly: $0.isHostOnly, path: $0.path) } == row.expected)
    }

    private static let now = Date(timeIntervalSince1970: 1_700_000_000)

    @Test(
        arguments: [
            ("§5.3 step 3: Max-Age counts from now", "a=1; Max-Age=60", now + 60),
            (
                "§5.3 step 3: Max-Age wins over Expires", "a=1; Expires=Wed, 09 Jun 2100 10:18:14 GMT; Max-Age=60",
                now + 60
            ),
            (
                "§5.3 step 3: Max-Age wins even when it comes first",
                "a=1; Max-Age=60; Expires=Wed, 09 Jun 2100 10:18:14 GMT", now + 60
            ),
            ("§5.2.2: Max-Age=0 is the earliest representable date", "a=1; Max-Age=0", Date.distantPast),
            ("§5.2.2: a negative Max-Age is the earliest representable date", "a=1; Max-Age=-1", Date.distantPast),
            (
                "§5.3 step 3: Expires alone", "a=1; Expires=Thu, 01 Jan 2105 00:00:00 GMT",
                Date(timeIntervalSince1970: 4_260_211_200)
            ),
            ("§5.3 step 3: neither: a session cookie", "a=1; Max-Age=x; Expires=never", nil),
        ] as [(String, String, Date?)])
    func expiryFollowsMaxAgeThenExpires(_ rule: String, _ field: String, _ expected: Date?) throws {
        let cookie = try #require(
            Cookie(SetCookie.parse(field)!, from: URL(string: "https://a.example/")!, at: Self.now))
        #expect(cookie.expiresAt == expected, "\(rule)")
    }

    /// §5.3 steps 2, 9, 6265bis §5.7: HttpOnly and SameSite are kept on the stored cookie; the creation time is now.
    @Test func sameSiteAndHttpOnlyAreKeptOnTheStoredCookie() throws {
        let set = try #require(SetCookie.parse("a=1; SameSite=Lax; HttpOnly"))
        let cookie = try #require(Cookie(set, from: URL(string: "https://a.example/")!, at: Self.now))
        #expect(cookie.sameSite == .lax && cookie.isHTTPOnly)
        #expect(cookie.createdAt == Self.now)
    }
}
