import Foundation
import Networking
import Testing
import NetworkingTestSupport

/// RFC 6265 §5.3 (replacing, expiring and evicting stored cookies) and §5.4 (the `Cookie` header) on the pure
/// ``CookieStore``. Listed in `Networking.docc/Conformance.md`.
@Suite struct CookieStoreTests {
    private static let start = Date(timeIntervalSince1970: 1_700_000_000)

    private static func cookie(_ field: String, from url: String = "https://example.com/", at offset: Double = 0)
        -> Cookie
    {
        Cookie(SetCookie.parse(field)!, from: URL(string: url)!, at: start + offset)!
    }

    private static func header(_ store: inout CookieStore, _ url: String, at offset: Double = 0) -> String? {
        CookieStore.cookieString(store.cookies(for: URL(string: url)!, at: start + offset))
    }

    // MARK: §5.3 step 11-12

    @Test func aCookieOfTheSameNameDomainAndPathReplacesTheOldOneAndKeepsItsCreationTime() {
        var store = CookieStore()
        store.insert([Self.cookie("a=1"), Self.cookie("b=1")], at: Self.start)
        store.insert([Self.cookie("a=2", at: 10)], at: Self.start + 10)
        #expect(store.all.map(\.value) == ["2", "1"])
        #expect(store.all.first?.createdAt == Self.start)
    }

    @Test func theHostOnlyFlagIsNotPartOfTheIdentity() {
        // §5.3 step 11 compares name, domain and path (draft 6265bis §5.7 step 23 adds the flag; see Conformance.md).
        var store = CookieStore()
        store.insert([Self.cookie("a=1")], at: Self.start)
        store.insert([Self.cookie("a=2; Domain=example.com", at: 1)], at: Self.start + 1)
        #expect(store.all.map(\.value) == ["2"])
        #expect(store.all.first?.isHostOnly == false)
    }

    @Test func anotherPathOrDomainOrNameIsAnotherCookie() {
        var store = CookieStore()
        store.insert(
            [
                Self.cookie("a=1"), Self.cookie("a=2; Path=/x"), Self.cookie("a=3", from: "https://www.example.com/"),
                Self.cookie("A=4"),
            ], at: Self.start)
        #expect(store.all.count == 4)
    }

    @Test func anExpiredCookieRemovesTheStoredOneAndIsNotStored() {
        var store = CookieStore()
        store.insert([Self.cookie("a=1"), Self.cookie("b=1")], at: Self.start)
        store.insert(
            [
                Self.cookie("a=; Max-Age=0"), Self.cookie("b=; Expires=Thu, 01 Jan 1970 00:00:00 GMT"),
                Self.cookie("c=; Max-Age=-1"),
            ],
            at: Self.start)
        #expect(store.all.isEmpty)
    }

    @Test func expiredCookiesAreRemovedAtTheNextLookUp() {
        var store = CookieStore()
        store.insert([Self.cookie("short=1; Max-Age=60"), Self.cookie("long=1; Max-Age=3600")], at: Self.start)
        #expect(Self.header(&store, "https://example.com/", at: 59) == "short=1; long=1")
        #expect(Self.header(&store, "https://example.com/", at: 60) == "long=1")
        #expect(store.all.map(\.name) == ["long"])
    }

    // MARK: §5.3 eviction

    @Test func pastTheLimitTheLeastRecentlyUsedCookieGoesFirst() {
        var store = CookieStore(maximumCount: 3)
        store.insert([Self.cookie("a=1"), Self.cookie("b=1; Path=/b"), Self.cookie("c=1")], at: Self.start)
        _ = store.cookies(for: URL(string: "https://example.com/")!, at: Self.start + 5)  // uses a and c, not b
        store.insert([Self.cookie("d=1", at: 6)], at: Self.start + 6)
        #expect(store.all.map(\.name) == ["a", "c", "d"])
        store.insert([Self.cookie("e=1", at: 7)], at: Self.start + 7)
        #expect(store.all.map(\.name) == ["c", "d", "e"])  // a, c used at the same time: the earlier inserted goes
    }

    @Test func pastTheLimitACrowdedDomainLosesItsCookiesBeforeOthers() {
        var store = CookieStore(maximumCount: 4, maximumCountPerDomain: 2)
        store.insert([Self.cookie("quiet=1", from: "https://quiet.example/")], at: Self.start)
        store.insert(
            ["x=1", "y=1", "z=1"].map { Self.cookie($0, from: "https://busy.example/", at: 1) }, at: Self.start + 1)
        store.insert([Self.cookie("new=1", from: "https://busy.example/", at: 2)], at: Self.start + 2)
        // quiet=1 is the least recently used, but busy.example holds more than its share.
        #expect(store.all.map(\.name) == ["quiet", "y", "z", "new"])
        #expect(CookieStore(maximumCount: 0, maximumCountPerDomain: 0).maximumCount == 1)
        #expect(CookieStore().maximumCount == 3_000 && CookieStore().maximumCountPerDomain == 50)
    }

    // MARK: §5.4

    @Test(arguments: [
        ("§5.4 step 1: host-only goes to its host only", "a=1", "https://www.example.com/", nil as String?),
        (
            "§5.4 step 1: a domain cookie goes to subdomains", "a=1; Domain=example.com", "https://www.example.com/",
            "a=1"
        ),
        ("§5.4 step 1: not to another site", "a=1; Domain=example.com", "https://example.org/", nil),
        ("§5.4 step 1: path-match", "a=1; Path=/docs", "https://example.com/docs/web", "a=1"),
        ("§5.4 step 1: no path-match", "a=1; Path=/docs", "https://example.com/docsets", nil),
        ("§5.4 step 1: Secure goes over https", "a=1; Secure", "https://example.com/", "a=1"),
        ("§5.4 step 1: Secure never over http", "a=1; Secure", "http://example.com/", nil),
        ("§5.4 step 1: a plain cookie goes over http too", "a=1", "http://example.com/", "a=1"),
        ("§5.4 step 1: HttpOnly goes to an HTTP API", "a=1; HttpOnly", "https://example.com/", "a=1"),
        ("§5.4 step 1, §8.5: ports do not separate cookies", "a=1", "https://example.com:8443/", "a=1"),
        ("§5.4 step 1: the query is not the path", "a=1; Path=/a", "https://example.com/a?x=/b", "a=1"),
    ])
    func aCookieGoesOnlyWhereItMatches(_ rule: String, _ field: String, _ url: String, _ expected: String?) {
        var store = CookieStore()
        store.insert([Self.cookie(field)], at: Self.start)
        #expect(Self.header(&store, url) == expected, "\(rule)")
    }

    @Test func longerPathsComeFirstThenEarlierCreationTimes() {
        // §5.4 step 2, and step 4: one string, pairs separated by "; ".
        var store = CookieStore()
        store.insert([Self.cookie("root=1; Path=/")], at: Self.start)
        store.insert([Self.cookie("deep=1; Path=/docs/web", at: 1)], at: Self.start + 1)
        store.insert([Self.cookie("mid=1; Path=/docs", at: 2)], at: Self.start + 2)
        store.insert([Self.cookie("root2=1; Path=/", at: 3)], at: Self.start + 3)
        store.insert([Self.cookie("root=2; Path=/", at: 4)], at: Self.start + 4)  // replaced: keeps its creation time
        #expect(Self.header(&store, "https://example.com/docs/web/page", at: 5) == "deep=1; mid=1; root=2; root2=1")
    }

    @Test func theCookieStringIsNameEqualsValueAsStored() {
        #expect(CookieStore.cookieString([]) == nil)
        #expect(CookieStore.cookieString([Self.cookie(#"a="x y""#), Self.cookie("b=")]) == #"a="x y"; b="#)
    }
}
