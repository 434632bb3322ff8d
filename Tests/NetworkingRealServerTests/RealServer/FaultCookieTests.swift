import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// `CookieBehavior` over the real transport: the fault server's hit records show which request carried which
    /// `Cookie` header; httpbin's `/cookies` shows what it received.
    @Suite struct FaultCookieTests {
        private static func cookieHeader(_ record: FaultServer.Hits.Record) -> String? {
            record.headers["cookie"]
        }

        /// What the jar holds for the fault server after `/set-cookies?case=<name>`, sorted by name.
        private static func cookiesSet(by name: String) async throws -> [String] {
            let jar = InMemoryCookieJar()
            let client = try await FaultServer.client(behavior: .cookies(jar: jar))
            _ = try await client.send(
                NetworkRequest<Data>(path: "/set-cookies", query: [URLQueryItem(name: "case", value: name)]))
            let url = try await FaultServer.url()
            return jar.cookies(for: url, at: Date()).map { "\($0.name)=\($0.value)" }.sorted()
        }

        @Test func aMalformedSetCookieIsIgnoredAloneItsNeighbourIsKept() async throws {
            // RFC 6265 §5.2 and the 6265bis draft: a field with a control character is ignored; the other one in the
            // same response is stored. Foundation joins the two fields; the transport cuts them apart first.
            #expect(try await Self.cookiesSet(by: "ctl") == ["ok=1"])
        }

        @Test func anExpiresDateIsNeverCutAtItsComma() async throws {
            #expect(try await Self.cookiesSet(by: "expires") == ["a=1", "b=2"])
        }

        @Test func aBadExpiresOrMaxAgeIsIgnoredAloneAndNoCookieIsLost() async throws {
            // Fields `date=1; Expires=soon`, `age=1; Max-Age=forever`, `ok=1`, `day=1; Expires=Wed`: each bad
            // attribute is ignored and its cookie kept. Foundation joins the fields with commas; the URL session
            // transport lost `age` when its splitter took `Expires=soon,` for the weekday of a date.
            #expect(try await Self.cookiesSet(by: "bad-dates") == ["age=1", "date=1", "day=1", "ok=1"])
        }

        @Test func aCommaInsideOneFieldIsTheKnownLimitOfAJoiningTransport() async throws {
            // One field "x=1, session=evil": a transport that keeps fields apart stores one cookie, x="1, session=evil"
            // (the libcurl transport's tests check that); Foundation hands the transport the same text as two joined
            // fields would give, so the URL session transport cannot tell them apart (documented in README).
            let expected = TestTransport.current == .curl ? ["x=1, session=evil"] : ["session=evil", "x=1"]
            #expect(try await Self.cookiesSet(by: "comma") == expected)
        }

        @Test func aCookieSetOnARedirectNeverReachesAnotherHost() async throws {
            let key = FaultServer.newKey("cookie-set")
            let other = FaultServer.newKey("cookie-other")
            let later = FaultServer.newKey("cookie-later")
            let jar = InMemoryCookieJar()
            let client = try await FaultServer.client(behavior: .cookies(jar: jar))
            let target = try await FaultServer.url(host: FaultServer.otherHost()).absoluteString + "/echo?key=\(other)"
            // When: 127.0.0.1 sets a cookie on its 302 to the other host (127.0.0.2)
            let echo = try await client.send(
                NetworkRequest<FaultEcho>(path: "/cookie-redirect", query: Faults.query(key, ["to": target])))
            // Then: the other host was reached without it; the jar holds it for 127.0.0.1 only
            #expect(echo.headers["cookie"] == nil)
            let set = try await FaultServer.hits(key)
            let landed = try await FaultServer.hits(other)
            #expect(set.count == 1 && landed.count == 1)
            #expect(set.requests.first.map(Self.cookieHeader) == .some(nil))
            #expect(landed.requests.first.map(Self.cookieHeader) == .some(nil))
            #expect(jar.all.map(\.domain) == ["127.0.0.1"])
            #expect(jar.all.first?.isHostOnly == true)
            // And the next call to 127.0.0.1 carries it.
            _ = try await client.send(NetworkRequest<Data>(path: "/echo", query: Faults.query(later)))
            #expect(try await FaultServer.hits(later).requests.first.map(Self.cookieHeader) == "fault=\(key)")
        }

        @Test func aCookieSetOnAnotherHostsRedirectIsSentOnTheSameHostHopOnly() async throws {
            let key = FaultServer.newKey("cookie-chain")
            let back = FaultServer.newKey("cookie-back")
            let client = try await FaultServer.client(behavior: .cookies())
            // 127.0.0.1 → other host (sets fault=<key>, redirects) → other host's /echo (must carry it)
            let home = try await FaultServer.url(host: FaultServer.otherHost()).absoluteString
            let hop = "\(home)/cookie-redirect?key=\(key)&to=\(home)/echo%3Fkey%3D\(back)"
            let echo = try await client.send(
                NetworkRequest<FaultEcho>(
                    path: "/redirect-to", query: [URLQueryItem(name: "url", value: hop)]))
            #expect(echo.headers["cookie"] == "fault=\(key)")
            #expect(try await FaultServer.hits(back).count == 1)
        }

        @Test func portsDoNotSeparateCookiesAsRFC6265Section8_5Says() async throws {
            let key = FaultServer.newKey("cookie-port")
            let other = FaultServer.newKey("cookie-port-other")
            let client = try await FaultServer.client(behavior: .cookies())
            let target = "http://127.0.0.1:\(try await FaultServer.alternatePort())/echo?key=\(other)"
            let echo = try await client.send(
                NetworkRequest<FaultEcho>(
                    path: "/cookie-redirect", query: Faults.query(key, ["to": target]), headers: ["Cookie": "mine=1"]))
            // The caller's own Cookie header is stripped on the hop to another origin; the jar's cookie for the host
            // 127.0.0.1 goes to every port of it.
            #expect(echo.headers["cookie"] == "fault=\(key)")
            #expect(try await FaultServer.hits(other).count == 1)
        }

        @Test func httpbinSetsACookieOnA302AndShowsItAfterwards() async throws {
            struct Cookies: Decodable, Sendable { let cookies: [String: String] }
            let hops = AttemptCounter()
            let client = try await HTTPBin.client(behavior: CombinedBehavior([.cookies(), hops]))
            let afterSet = try await client.send(
                NetworkRequest<Cookies>(path: "/cookies/set", query: [URLQueryItem(name: "flavour", value: "oat")]))
            #expect(afterSet.cookies == ["flavour": "oat"])
            #expect(hops.sent == 2)  // the 302 and the /cookies it points to, both sent by the cookie behavior
            #expect(hops.statuses == [302, 200])
            let later = try await client.send(NetworkRequest<Cookies>(path: "/cookies"))
            #expect(later.cookies == ["flavour": "oat"])
        }
    }
}
