import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

/// `CookieBehavior` in a client over a mock transport: what is stored, what is sent, hop by hop.
@Suite struct CookieBehaviorTests {
    private static func reply(
        _ request: HTTPRequest, _ status: Int, _ headers: HTTPFields = [:], body: String = ""
    ) -> (HTTPResponse, Data) {
        (HTTPResponse(status: .init(code: status), headerFields: headers, url: request.url), Data(body.utf8))
    }

    /// Answers `/login` with a cookie, `/redirect` with a 302 to `Location` and a cookie, `/loop` with a 302 to
    /// itself, and everything else with the `Cookie` header it received.
    private static func site(location: String = "https://api.example.test/v1/echo") -> MockTransport {
        MockTransport { request in
            switch request.pathWithoutQueryForTests {
            case "/v1/login": reply(request, 200, ["Set-Cookie": "sid=s3cret; Path=/"])
            case "/v1/redirect": reply(request, 302, ["Set-Cookie": "hop=1; Path=/", "Location": location])
            case "/v1/loop": reply(request, 302, ["Location": "/v1/loop"])
            case "/v1/denied": reply(request, 401, ["Set-Cookie": "tried=1; Path=/"])
            case "/v1/junk": reply(request, 200, ["Set-Cookie": "no-equals-sign; Path=/"])
            default: reply(request, 200, body: request.headerFields[.cookie] ?? "")
            }
        }
    }

    @Test func aCookieSetByOneResponseIsSentWithTheNextRequest() async throws {
        let transport = Self.site()
        let jar = InMemoryCookieJar()
        let client = try makeClient(transport: transport, behavior: .cookies(jar: jar))
        #expect(try await client.send(NetworkRequest<String>(path: "/echo")) == "")
        _ = try await client.send(NetworkRequest<Data>(path: "/login"))
        #expect(try await client.send(NetworkRequest<String>(path: "/echo")) == "sid=s3cret")
        #expect(jar.all.map(\.name) == ["sid"])
    }

    @Test func aRedirectIsFollowedHereStoringTheCookieOfTheHop() async throws {
        let transport = Self.site()
        let client = try makeClient(transport: transport, behavior: .cookies())
        #expect(try await client.send(NetworkRequest<String>(path: "/redirect")) == "hop=1")
        #expect(transport.requests.count == 2)
        #expect(transport.requests.allSatisfy { $0.followsRedirects == false })
    }

    @Test func aRedirectToAnotherOriginCarriesNoneOfThisOriginsCookies() async throws {
        let transport = Self.site(location: "https://elsewhere.example.net/landing")
        let client = try makeClient(transport: transport, behavior: .cookies())
        _ = try await client.send(NetworkRequest<Data>(path: "/login"))
        let landed = try await client.send(
            NetworkRequest<String>(path: "/redirect", headers: ["Cookie": "explicit=1"]))
        #expect(landed == "")
        #expect(transport.requests.last?.url?.host == "elsewhere.example.net")
        #expect(transport.requests.last?.headerFields[.cookie] == nil)
        #expect(transport.requests[1].headerFields[.cookie] == "explicit=1; sid=s3cret")  // same origin: both
    }

    @Test func aRequestThatDoesNotFollowRedirectsGetsThe3xxAndItsCookieIsStored() async throws {
        let transport = Self.site()
        let jar = InMemoryCookieJar()
        let client = try makeClient(transport: transport, behavior: .cookies(jar: jar))
        var request = NetworkRequest<Data>(path: "/redirect")
        request.followsRedirects = false
        let error = try await expectNetworkError { try await client.send(request) }
        #expect(error?.kind == .unacceptableStatus(302))
        #expect(transport.requests.count == 1)
        #expect(jar.all.map(\.name) == ["hop"])
    }

    @Test func aClientThatDoesNotFollowRedirectsGetsThe3xxWithCookiesToo() async throws {
        // The client's own setting, not only the request's, reaches the behavior: cookies change nothing else.
        let transport = Self.site()
        let jar = InMemoryCookieJar()
        let client = NetworkClient(
            configuration: .init(
                baseURL: URL(string: "https://api.example.test/v1"), transport: transport, behavior: .cookies(jar: jar),
                followsRedirects: false))
        let error = try await expectNetworkError { try await client.send(NetworkRequest<Data>(path: "/redirect")) }
        #expect(error?.kind == .unacceptableStatus(302))
        #expect(transport.requests.count == 1)
        #expect(jar.all.map(\.name) == ["hop"])
    }

    @Test func anUnacceptableStatusStillStoresItsCookieAndFailsAsBefore() async throws {
        let jar = InMemoryCookieJar()
        let client = try makeClient(transport: Self.site(), behavior: .cookies(jar: jar))
        let error = try await expectNetworkError { try await client.send(NetworkRequest<Data>(path: "/denied")) }
        #expect(error?.kind == .unacceptableStatus(401))
        #expect(jar.all.map(\.name) == ["tried"])
    }

    @Test func redirectsBeyondTheLimitAreATypedError() async throws {
        let transport = Self.site()
        let client = try makeClient(
            transport: transport, behavior: CookieBehavior(try CookieSettings(maximumRedirects: 2)))
        let error = try await expectNetworkError { try await client.send(NetworkRequest<Data>(path: "/loop")) }
        #expect(error?.kind == .transport(.tooManyRedirects))
        #expect(transport.requests.count == 3)
    }

    @Test func aPOSTRedirectedBy303BecomesABodilessGET() async throws {
        let transport = MockTransport { request in
            request.pathWithoutQueryForTests == "/v1/form"
                ? Self.reply(request, 303, ["Location": "/v1/done"])
                : Self.reply(request, 200, body: request.method.rawValue)
        }
        let client = try makeClient(transport: transport, behavior: .cookies())
        let method = try await client.send(NetworkRequest<String>(.post, path: "/form", body: .json(["a": 1])))
        #expect(method == "GET")
        #expect(transport.requests.last?.body == HTTPBody.empty)
    }

    @Test func expiryCountsOnTheInjectedClock() async throws {
        let clock = TestClock()
        let transport = MockTransport { request in
            request.pathWithoutQueryForTests == "/v1/login"
                ? Self.reply(request, 200, ["Set-Cookie": "sid=1; Max-Age=60"])
                : Self.reply(request, 200, body: request.headerFields[.cookie] ?? "")
        }
        let client = try makeClient(transport: transport, behavior: .cookies(clock: clock))
        _ = try await client.send(NetworkRequest<Data>(path: "/login"))
        clock.advance(by: .seconds(59))
        #expect(try await client.send(NetworkRequest<String>(path: "/x")) == "sid=1")
        clock.advance(by: .seconds(1))
        #expect(try await client.send(NetworkRequest<String>(path: "/x")) == "")
    }

    @Test func aMalformedSetCookieIsIgnoredAndLogged() async throws {
        let log = LockedBox([String]())
        let jar = InMemoryCookieJar()
        let client = try makeClient(
            transport: Self.site(),
            behavior: CookieBehavior(jar: jar, debugLog: { line in log.withLock { $0.append(line) } }))
        _ = try await client.send(NetworkRequest<Data>(path: "/junk"))
        #expect(jar.all.isEmpty)
        #expect(log.current == ["ignored a malformed Set-Cookie from api.example.test"])
    }

    @Test func eachSetCookieFieldIsOneCookieAndAMalformedOneIsIgnoredAlone() async throws {
        // RFC 6265 §5.2: a comma never splits a field; the malformed field costs only itself.
        let fields = HTTPFields(
            ["a=x, b=evil; Path=/", "junk", "ok=1; Path=/"].map { HTTPField(name: .setCookie, value: $0) })
        let transport = MockTransport { request in
            request.pathWithoutQueryForTests == "/v1/set"
                ? Self.reply(request, 200, fields) : Self.reply(request, 200, body: request.headerFields[.cookie] ?? "")
        }
        let jar = InMemoryCookieJar()
        let client = try makeClient(transport: transport, behavior: .cookies(jar: jar))
        _ = try await client.send(NetworkRequest<Data>(path: "/set"))
        #expect(jar.all.map(\.name) == ["a", "ok"])
        #expect(try await client.send(NetworkRequest<String>(path: "/echo")) == "a=x, b=evil; ok=1")
    }

    @Test func placedOutsideCoalescingEachJarsCookieKeepsCallsApart() async throws {
        let gate = Gate()
        let transport = MockTransport { request in
            await gate.wait()
            return Self.reply(request, 200, body: request.headerFields[.cookie] ?? "")
        }
        let coalescing = CoalescingBehavior()
        let alice = InMemoryCookieJar()
        let bob = InMemoryCookieJar()
        let origin = URL(string: "https://api.example.test/")!
        alice.save([Cookie(SetCookie.parse("sid=alice")!, from: origin, at: Date())!], at: Date())
        bob.save([Cookie(SetCookie.parse("sid=bob")!, from: origin, at: Date())!], at: Date())
        let a = try makeClient(transport: transport, behavior: CombinedBehavior([.cookies(jar: alice), coalescing]))
        let b = try makeClient(transport: transport, behavior: CombinedBehavior([.cookies(jar: bob), coalescing]))
        async let first = a.send(NetworkRequest<String>(path: "/me"))
        async let second = b.send(NetworkRequest<String>(path: "/me"))
        try await BehaviorFakes.waitUntil { coalescing.table.calls.count == 2 }
        gate.open()
        #expect(try await [first, second] == ["sid=alice", "sid=bob"])
        #expect(transport.requests.count == 2)
    }

    @Test func aNegativeRedirectLimitIsRefused() {
        #expect(
            throws: BehaviorSettingsError(
                settings: "CookieSettings", setting: "maximumRedirects", value: "-1",
                requirement: "it must be at least 0")
        ) {
            _ = try CookieSettings(maximumRedirects: -1)
        }
        #expect(CookieSettings.default.maximumRedirects == 10)
    }
}

extension HTTPRequest {
    /// The path without its query, for routing in mock transports.
    fileprivate var pathWithoutQueryForTests: String {
        String(path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }
}
