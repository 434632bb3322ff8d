import Foundation
import Networking
import Testing
import NetworkingTestSupport

/// RFC 6265 §5.2 (the `Set-Cookie` parsing algorithm) and §5.2.1-§5.2.6 (its attributes), with the parts of
/// draft-ietf-httpbis-rfc6265bis-22 the library follows (§5.6, §5.6.7 `SameSite`): one row per rule, citing it.
/// Listed in `Networking.docc/Conformance.md`.
@Suite struct SetCookieConformanceTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let section: String
        let rule: String
        let field: String
        let expected: SetCookie?
        var testDescription: String { "\(section) \(rule)" }
    }

    private static let date = Date(timeIntervalSince1970: 1_623_233_894)  // Wed, 09 Jun 2021 10:18:14 GMT
    private static func cookie(
        _ name: String = "a", _ value: String = "1", expires: Date? = nil, maxAge: Int? = nil, domain: String? = nil,
        path: String? = nil, secure: Bool = false, httpOnly: Bool = false, sameSite: CookieSameSite = .default
    ) -> SetCookie {
        SetCookie(
            name: name, value: value, expires: expires, maxAge: maxAge, domain: domain, path: path, isSecure: secure,
            isHTTPOnly: httpOnly, sameSite: sameSite)
    }

    static let rows: [Row] = [
        // §5.2: the name-value pair
        Row(section: "§5.2 step 1", rule: "the pair ends at the first semicolon", field: "a=1;b=2", expected: cookie()),
        Row(
            section: "§5.2 step 1", rule: "without a semicolon, the whole field is the pair", field: "a=1",
            expected: cookie()),
        Row(section: "§5.2 step 2", rule: "a pair without = is ignored", field: "a; Path=/", expected: nil),
        Row(
            section: "§5.2 step 2", rule: "an = in an attribute does not save a pair without =", field: "a;b=1",
            expected: nil),
        Row(section: "§5.2 step 3", rule: "the name ends at the first =", field: "a=b=c", expected: cookie("a", "b=c")),
        Row(
            section: "§5.2 step 4", rule: "spaces and tabs around name and value are removed", field: " \ta \t= \t1 \t",
            expected: cookie()),
        Row(section: "§5.2 step 4", rule: "inner spaces are kept", field: "a b=x y", expected: cookie("a b", "x y")),
        Row(
            section: "§5.2 step 4", rule: "quotes are part of the value", field: #"a="1""#,
            expected: cookie("a", #""1""#)),
        Row(section: "§5.2 step 5", rule: "an empty name is ignored", field: "=1", expected: nil),
        Row(section: "§5.2 step 5", rule: "a name of spaces is empty", field: "  =1", expected: nil),
        Row(section: "§5.2 step 6", rule: "an empty value is a value", field: "a=", expected: cookie("a", "")),
        Row(
            section: "§5.2", rule: "a comma is an ordinary character: one field, one cookie", field: "a=x, b=evil",
            expected: cookie("a", "x, b=evil")),
        Row(
            section: "6265bis §5.6 step 1", rule: "a control character in the value ignores the field",
            field: "ctl=a\u{1}b", expected: nil),
        Row(
            section: "6265bis §5.6 step 1", rule: "a control character in an attribute ignores the field",
            field: "a=1; Path=/\u{7F}", expected: nil),
        Row(
            section: "6265bis §5.6 step 1", rule: "a tab is not a control character here", field: "a=1\t; Secure",
            expected: cookie(secure: true)),
        Row(
            section: "6265bis §5.6 step 5", rule: "name and value of 4,096 bytes are kept",
            field: "a=" + String(repeating: "x", count: 4_095),
            expected: cookie("a", String(repeating: "x", count: 4_095))),
        Row(
            section: "6265bis §5.6 step 5", rule: "name and value over 4,096 bytes are ignored",
            field: "a=" + String(repeating: "x", count: 4_096), expected: nil),
        // §5.2: the attributes
        Row(
            section: "§5.2 attributes", rule: "attribute names are case-insensitive",
            field: "a=1; sEcUrE; HTTPONLY; pAtH=/p", expected: cookie(path: "/p", secure: true, httpOnly: true)),
        Row(
            section: "§5.2 attributes", rule: "spaces around attribute names and values are removed",
            field: "a=1;  Path \t=  /p  ", expected: cookie(path: "/p")),
        Row(
            section: "§5.2 attributes", rule: "unknown attributes and empty ones are ignored",
            field: "a=1; Priority=High; ;; Partitioned", expected: cookie()),
        Row(
            section: "§5.2 attributes", rule: "a flag attribute ignores its value", field: "a=1; Secure=no; HttpOnly=0",
            expected: cookie(secure: true, httpOnly: true)),
        Row(
            section: "6265bis §5.6 step 6", rule: "an attribute value over 1,024 bytes is ignored",
            field: "a=1; Path=/ok; Path=/" + String(repeating: "p", count: 1_024), expected: cookie(path: "/ok")),
        // §5.2.1 Expires
        Row(
            section: "§5.2.1", rule: "Expires is a cookie date", field: "a=1; Expires=Wed, 09 Jun 2021 10:18:14 GMT",
            expected: cookie(expires: date)),
        Row(
            section: "§5.2.1", rule: "an Expires that is not a cookie date is ignored", field: "a=1; Expires=soon",
            expected: cookie()),
        Row(
            section: "§5.2.1, §5.3 step 3", rule: "the last valid Expires counts",
            field: "a=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Expires=Wed, 09 Jun 2021 10:18:14 GMT; Expires=never",
            expected: cookie(expires: date)),
        // §5.2.2 Max-Age
        Row(
            section: "§5.2.2", rule: "Max-Age is delta seconds", field: "a=1; Max-Age=3600",
            expected: cookie(maxAge: 3600)),
        Row(
            section: "§5.2.2", rule: "a negative Max-Age is kept (it expires the cookie)", field: "a=1; Max-Age=-5",
            expected: cookie(maxAge: -5)),
        Row(
            section: "§5.2.2", rule: "Max-Age=0 is kept (it expires the cookie)", field: "a=1; Max-Age=0",
            expected: cookie(maxAge: 0)),
        Row(
            section: "§5.2.2", rule: "a Max-Age starting with neither a digit nor - is ignored",
            field: "a=1; Max-Age=+5", expected: cookie()),
        Row(
            section: "§5.2.2", rule: "a Max-Age with a non-digit after its first character is ignored",
            field: "a=1; Max-Age=1e3", expected: cookie()),
        Row(section: "§5.2.2", rule: "an empty Max-Age is ignored", field: "a=1; Max-Age=", expected: cookie()),
        Row(
            section: "§5.2.2", rule: "a lone - is not an integer and is ignored", field: "a=1; Max-Age=-",
            expected: cookie()),
        Row(
            section: "§5.2.2, §5.2.1", rule: "a huge Max-Age is capped at a representable date (10 years)",
            field: "a=1; Max-Age=99999999999999999999999", expected: cookie(maxAge: 315_360_000)),
        Row(
            section: "§5.2.2, §5.3 step 3", rule: "the last valid Max-Age counts",
            field: "a=1; Max-Age=10; Max-Age=20; Max-Age=x", expected: cookie(maxAge: 20)),
        Row(
            section: "§5.3 step 3", rule: "Max-Age and Expires are both kept (Max-Age wins when stored)",
            field: "a=1; Max-Age=5; Expires=Wed, 09 Jun 2021 10:18:14 GMT", expected: cookie(expires: date, maxAge: 5)),
        // §5.2.3 Domain
        Row(
            section: "§5.2.3", rule: "Domain is lower-cased", field: "a=1; Domain=Example.COM",
            expected: cookie(domain: "example.com")),
        Row(
            section: "§5.2.3", rule: "one leading dot is dropped", field: "a=1; Domain=.example.com",
            expected: cookie(domain: "example.com")),
        Row(
            section: "§5.2.3", rule: "only one leading dot is dropped", field: "a=1; Domain=..example.com",
            expected: cookie(domain: ".example.com")),
        Row(
            section: "§5.2.3", rule: "an empty Domain is ignored (SHOULD)", field: "a=1; Domain=example.com; Domain=",
            expected: cookie(domain: "example.com")),
        Row(
            section: "§5.2.3, §5.3 step 4", rule: "a lone dot is an empty domain: host-only",
            field: "a=1; Domain=example.com; Domain=.", expected: cookie()),
        Row(
            section: "§5.2.3, §5.3 step 4", rule: "the last Domain counts",
            field: "a=1; Domain=a.example; Domain=b.example", expected: cookie(domain: "b.example")),
        // §5.2.4 Path
        Row(
            section: "§5.2.4", rule: "Path is kept as sent", field: "a=1; Path=/Docs/%7E",
            expected: cookie(path: "/Docs/%7E")),
        Row(
            section: "§5.2.4, §5.3 step 7", rule: "the last Path counts, even one standing for the default path",
            field: "a=1; Path=/a; Path=relative", expected: cookie(path: "relative")),
        Row(
            section: "§5.2.4", rule: "an empty Path is a Path (it stands for the default path)", field: "a=1; Path=",
            expected: cookie(path: "")),
        // §5.2.5, §5.2.6
        Row(section: "§5.2.5", rule: "Secure", field: "a=1; Secure", expected: cookie(secure: true)),
        Row(section: "§5.2.6", rule: "HttpOnly", field: "a=1; HttpOnly", expected: cookie(httpOnly: true)),
        // 6265bis §5.6.7 SameSite
        Row(
            section: "6265bis §5.6.7", rule: "SameSite=Strict", field: "a=1; SameSite=Strict",
            expected: cookie(sameSite: .strict)),
        Row(
            section: "6265bis §5.6.7", rule: "SameSite=Lax in any case", field: "a=1; samesite=lAX",
            expected: cookie(sameSite: .lax)),
        Row(
            section: "6265bis §5.6.7", rule: "SameSite=None", field: "a=1; SameSite=NONE",
            expected: cookie(sameSite: .none)),
        Row(
            section: "6265bis §5.6.7", rule: "an unknown SameSite value is Default", field: "a=1; SameSite=Strictest",
            expected: cookie()),
        Row(
            section: "6265bis §5.6.7", rule: "a SameSite without value is Default", field: "a=1; SameSite",
            expected: cookie()),
        Row(
            section: "6265bis §5.6.7, §5.7 step 17", rule: "the last SameSite counts, an unknown one too",
            field: "a=1; SameSite=Strict; SameSite=bogus", expected: cookie()),
        Row(
            section: "6265bis §5.6.7", rule: "no SameSite is Default", field: "a=1",
            expected: cookie(sameSite: .default)),
    ]

    @Test(arguments: rows) func setCookieFieldsParseAsRFC6265Says(_ row: Row) {
        #expect(SetCookie.parse(row.field) == row.expected)
    }
}
