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

/// RFC 6265 §5.1.3 (domain matching) and §5.1.4 (default-path and path-match): one row per rule. Listed in
/// `Networking.docc/Conformance.md`.
@Suite struct CookieMatchingTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let section: String
        let rule: String
        let input: String
        let against: String
        let expected: Bool
        var testDescription: String { "\(section) \(rule)" }
    }

    static let domainRows: [Row] = [
        Row(
            section: "§5.1.3", rule: "identical strings match", input: "example.com", against: "example.com",
            expected: true),
        Row(
            section: "§5.1.3", rule: "a subdomain matches", input: "www.example.com", against: "example.com",
            expected: true),
        Row(
            section: "§5.1.3", rule: "a deeper subdomain matches", input: "a.b.example.com", against: "example.com",
            expected: true),
        Row(
            section: "§5.1.3", rule: "the character before the suffix must be a dot", input: "wwwexample.com",
            against: "example.com", expected: false),
        Row(
            section: "§5.1.3", rule: "a parent does not match its subdomain", input: "example.com",
            against: "www.example.com", expected: false),
        Row(
            section: "§5.1.3", rule: "a sibling does not match", input: "api.example.com", against: "www.example.com",
            expected: false),
        Row(
            section: "§5.1.3", rule: "an IP address matches only itself", input: "127.0.0.1", against: "127.0.0.1",
            expected: true),
        Row(
            section: "§5.1.3", rule: "an IP address never matches as a suffix", input: "127.0.0.1", against: "0.0.1",
            expected: false),
        Row(
            section: "§5.1.3", rule: "an IPv6 address never matches as a suffix", input: "::ffff:1.2.3.4",
            against: "2.3.4", expected: false),
        Row(
            section: "§5.1.3", rule: "octets are compared: no Unicode equivalence", input: "caf\u{E9}.example",
            against: "cafe\u{301}.example", expected: false),
        Row(
            section: "§5.1.3", rule: "an empty domain matches nothing", input: "example.com", against: "",
            expected: false),
    ]

    @Test(arguments: domainRows) func domainMatching(_ row: Row) {
        #expect(CookieMatching.domainMatches(host: row.input, domain: row.against) == row.expected)
    }

    static let pathRows: [Row] = [
        Row(section: "§5.1.4", rule: "identical paths match", input: "/docs", against: "/docs", expected: true),
        Row(
            section: "§5.1.4", rule: "a cookie path ending in / matches below it", input: "/docs/web",
            against: "/docs/", expected: true),
        Row(
            section: "§5.1.4", rule: "a prefix followed by / matches", input: "/docs/web", against: "/docs",
            expected: true),
        Row(
            section: "§5.1.4", rule: "a prefix followed by another character does not", input: "/docsets",
            against: "/docs", expected: false),
        Row(
            section: "§5.1.4", rule: "a longer cookie path does not match", input: "/docs", against: "/docs/",
            expected: false),
        Row(section: "§5.1.4", rule: "/ matches every path", input: "/anything/at/all", against: "/", expected: true),
        Row(section: "§5.1.4", rule: "paths are case-sensitive", input: "/Docs", against: "/docs", expected: false),
        Row(
            section: "§5.1.4", rule: "paths are octets: no percent-decoding", input: "/a%2Fb", against: "/a/b",
            expected: false),
    ]

    @Test(arguments: pathRows) func pathMatching(_ row: Row) {
        #expect(CookieMatching.pathMatches(requestPath: row.input, cookiePath: row.against) == row.expected)
    }

    @Test(arguments: [
        ("§5.1.4 step 2: default-path: an empty path: /", "", "/"),
        ("§5.1.4 step 2: default-path: a path not starting with /: /", "docs/a", "/"),
        ("§5.1.4 step 3: default-path: a single /: /", "/", "/"),
        ("§5.1.4 step 3: default-path: one / only: /", "/login", "/"),
        ("§5.1.4 step 4: default-path: up to the last /", "/account/login", "/account"),
        ("§5.1.4 step 4: default-path: a trailing / is the last one", "/a/b/", "/a/b"),
        ("§5.1.4 step 4: default-path: deeper paths", "/a/b/c", "/a/b"),
    ])
    func defaultPath(_ rule: String, _ path: String, _ expected: String) {
        #expect(CookieMatching.defaultPath(path) == expected, "\(rule)")
    }

    @Test(arguments: [
        ("https://WWW.Example.COM/a?q=1", CookieMatching.Target(scheme: "https", host: "www.example.com", path: "/a")),
        ("HTTP://example.com", CookieMatching.Target(scheme: "http", host: "example.com", path: "/")),
        ("https://example.com/a%20b/", CookieMatching.Target(scheme: "https", host: "example.com", path: "/a%20b/")),
    ])
    func theRequestHostIsLowerCasedAndThePathKeepsItsEncodingWithoutTheQuery(
        _ url: String, _ expected: CookieMatching.Target
    ) {
        #expect(CookieMatching.target(of: URL(string: url)!) == expected)
    }

    @Test func onlyHTTPSIsASecureProtocol() {
        #expect(CookieMatching.target(of: URL(string: "https://a.example/")!)?.isSecure == true)
        #expect(CookieMatching.target(of: URL(string: "http://localhost/")!)?.isSecure == false)
        #expect(CookieMatching.target(of: URL(string: "file:///tmp/x")!) == nil)
    }
}
