import Foundation
import Networking
import Testing
import NetworkingTestSupport

/// RFC 6265 §5.3 storage and §5.4 matching as tables: which cookies are accepted, and where they go.
@Suite struct CookieTests {
    private static let now = Date(timeIntervalSince1970: 1_700_000_000)

    private static func cookie(_ line: String, from url: String) -> Cookie? {
        Cookie(SetCookie.parse(line)!, from: URL(string: url)!, at: now)
    }

    @Test(arguments: [
        ("a=1", "https://www.example.com/", true),
        ("a=1; Domain=example.com", "https://www.example.com/", true),
        ("a=1; Domain=.EXAMPLE.com", "https://www.example.com/", true),
        ("a=1; Domain=www.example.com", "https://www.example.com/", true),
        ("a=1; Domain=other.com", "https://www.example.com/", false),
        ("a=1; Domain=sub.www.example.com", "https://www.example.com/", false),
        ("a=1; Domain=ample.com", "https://www.example.com/", false),
        ("a=1; Domain=com", "https://www.example.com/", false),
        ("a=1; Domain=localhost", "http://localhost/", true),
        ("a=1; Domain=0.0.1", "http://127.0.0.1/", false),
        ("a=1; Domain=127.0.0.1", "http://127.0.0.1/", true),
        ("a=1; Secure", "http://www.example.com/", false),
        ("a=1; Secure", "https://www.example.com/", true),
    ])
    func storageAcceptsOnlyWhatTheOriginMaySet(_ line: String, _ url: String, _ accepted: Bool) {
        #expect((Self.cookie(line, from: url) != nil) == accepted)
    }

    @Test func aBareTopLevelDomainIsHostOnlyWhenItIsTheHostItself() throws {
        let cookie = try #require(Self.cookie("a=1; Domain=localhost", from: "http://localhost/"))
        #expect(cookie.isHostOnly)
        #expect(!cookie.matches(URL(string: "http://sub.localhost/")!))
    }

    @Test(arguments: [
        // (Set-Cookie, set from, request URL, sent?)
        ("a=1", "https://example.com/", "https://example.com/", true),
        ("a=1", "https://example.com/", "https://www.example.com/", false),  // host-only
        ("a=1; Domain=example.com", "https://example.com/", "https://www.example.com/", true),
        ("a=1; Domain=example.com", "https://example.com/", "https://wwwexample.com/", false),
        ("a=1; Domain=example.com", "https://example.com/", "https://example.org/", false),
        ("a=1", "https://example.com/", "http://example.com/", true),  // another scheme, not Secure
        ("a=1", "https://example.com:8443/", "https://example.com:9443/", true),  // ports do not isolate cookies
        ("a=1; Secure", "https://example.com/", "http://example.com/", false),
        ("a=1; Path=/docs", "https://example.com/", "https://example.com/docs", true),
        ("a=1; Path=/docs", "https://example.com/", "https://example.com/docs/web", true),
        ("a=1; Path=/docs", "https://example.com/", "https://example.com/docsets", false),
        ("a=1; Path=/docs/", "https://example.com/", "https://example.com/docs/x", true),
        ("a=1; Path=/docs", "https://example.com/", "https://example.com/", false),
        ("a=1", "https://example.com/account/login", "https://example.com/account/x", true),  // default path
        ("a=1", "https://example.com/account/login", "https://example.com/other", false),
        ("a=1", "https://example.com/login", "https://example.com/other", true),  // default path "/"
        ("a=1; Path=/a", "https://example.com/", "https://example.com/a?x=/b", true),  // the query does not count
    ])
    func cookiesGoOnlyWhereTheirDomainPathAndSecureFlagAllow(
        _ line: String, _ setFrom: String, _ request: String, _ sent: Bool
    ) throws {
        let cookie = try #require(Self.cookie(line, from: setFrom))
        #expect(cookie.matches(URL(string: request)!) == sent)
    }

    @Test func maxAgeWinsOverExpiresAndCountsFromNow() throws {
        let cookie = try #require(
            Self.cookie("a=1; Expires=Wed, 09 Jun 2100 10:18:14 GMT; Max-Age=60", from: "https://example.com/"))
        #expect(cookie.expiresAt == Self.now.addingTimeInterval(60))
        #expect(!cookie.isExpired(at: Self.now.addingTimeInterval(59)))
        #expect(cookie.isExpired(at: Self.now.addingTimeInterval(60)))
        let gone = try #require(Self.cookie("a=1; Max-Age=0", from: "https://example.com/"))
        #expect(gone.isExpired(at: Self.now))
        let session = try #require(Self.cookie("a=1", from: "https://example.com/"))
        #expect(session.expiresAt == nil && !session.isExpired(at: .distantFuture))
    }
}
