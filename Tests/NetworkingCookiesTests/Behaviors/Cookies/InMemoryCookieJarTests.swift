import Foundation
import Networking
import Testing
import NetworkingTestSupport

@Suite struct InMemoryCookieJarTests {
    private static let start = Date(timeIntervalSince1970: 1_700_000_000)
    private static let site = URL(string: "https://example.com/docs/page")!

    private static func cookie(_ line: String, at date: Date = start) -> Cookie {
        Cookie(SetCookie.parse(line)!, from: URL(string: "https://example.com/")!, at: date)!
    }

    @Test func aCookieOfTheSameNameDomainAndPathReplacesTheOldOneKeepingItsAge() {
        let jar = InMemoryCookieJar()
        jar.save([Self.cookie("a=1"), Self.cookie("b=1")], at: Self.start)
        jar.save([Self.cookie("a=2", at: Self.start + 10)], at: Self.start + 10)
        let sent = jar.cookies(for: Self.site, at: Self.start + 10)
        #expect(sent.map(\.value) == ["2", "1"])  // a keeps its place: created first
        #expect(sent.first?.createdAt == Self.start)
        #expect(jar.all.count == 2)
    }

    @Test func longerPathsComeFirstThenOlderCookies() {
        let jar = InMemoryCookieJar()
        jar.save([Self.cookie("root=1; Path=/")], at: Self.start)
        jar.save([Self.cookie("deep=1; Path=/docs")], at: Self.start + 1)
        jar.save([Self.cookie("root2=1; Path=/")], at: Self.start + 2)
        #expect(jar.cookies(for: Self.site, at: Self.start + 3).map(\.name) == ["deep", "root", "root2"])
    }

    @Test func expiredCookiesAreNeitherSentNorKept() {
        let jar = InMemoryCookieJar()
        jar.save([Self.cookie("short=1; Max-Age=60"), Self.cookie("long=1; Max-Age=3600")], at: Self.start)
        #expect(jar.cookies(for: Self.site, at: Self.start + 59).count == 2)
        #expect(jar.cookies(for: Self.site, at: Self.start + 60).map(\.name) == ["long"])
        #expect(jar.all.map(\.name) == ["long"])
    }

    @Test func maxAgeZeroDeletesAStoredCookie() {
        let jar = InMemoryCookieJar()
        jar.save([Self.cookie("a=1")], at: Self.start)
        jar.save([Self.cookie("a=; Max-Age=0", at: Self.start + 1)], at: Self.start + 1)
        #expect(jar.all.isEmpty)
    }

    @Test func pastItsLimitTheJarDropsTheLeastRecentlyUsed() {
        // RFC 6265 §5.3: the earliest last-access time goes first; a look-up that sends a cookie is an access.
        let jar = InMemoryCookieJar(maximumCount: 3)
        jar.save([Self.cookie("old=1"), Self.cookie("used=1"), Self.cookie("idle=1; Path=/idle")], at: Self.start)
        _ = jar.cookies(for: Self.site, at: Self.start + 1)  // old and used, not idle
        jar.save([Self.cookie("new=1", at: Self.start + 2)], at: Self.start + 2)
        #expect(jar.all.map(\.name) == ["old", "used", "new"])
        #expect(InMemoryCookieJar(maximumCount: 0).maximumCount == 1)
        #expect(InMemoryCookieJar().maximumCount == 3_000)
    }
}
