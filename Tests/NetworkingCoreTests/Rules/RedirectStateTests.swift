import Foundation
import Networking
import Testing
import NetworkingTestSupport

/// The redirect rules alone, as tables: no transport, no server.
@Suite struct RedirectStateTests {
    static let start = URL(string: "https://api.example.test/v1/items")!

    static func hop(
        _ method: HTTPMethod, url: URL = start, headers: [(HTTPField.Name, String)] = [], body: String? = nil
    ) -> HTTPRequest {
        var fields = HTTPFields()
        for (name, value) in headers { fields.append(HTTPField(name: name, value: value)) }
        return HTTPRequest(
            method: method, url: url, headerFields: fields, body: body.map { HTTPBody.data(Data($0.utf8)) } ?? .empty)
    }

    static func followed(_ decision: RedirectState.Decision) -> HTTPRequest? {
        if case .follow(let next) = decision { return next }
        Issue.record("expected a hop, got \(decision)")
        return nil
    }

    static func refusal(_ decision: RedirectState.Decision) -> String? {
        if case .refuse(let code, let message) = decision { return "\(code.rawValue): \(message)" }
        return nil
    }

    static func delivers(_ decision: RedirectState.Decision) -> Bool {
        if case .deliver = decision { return true }
        return false
    }

    /// A request with a body and every kind of header: content, credentials, and an ordinary one.
    static func upload(_ method: HTTPMethod) -> HTTPRequest {
        hop(
            method,
            headers: [
                ("Content-Type", "application/json"), ("Content-Length", "27"), ("Content-Encoding", "identity"),
                ("Authorization", "Bearer t"), ("X-Trace", "1"),
            ], body: #"{"name":"Ada","n":12345678}"#)
    }

    struct MethodRow: Sendable, CustomStringConvertible {
        let status: Int
        let method: HTTPMethod
        let nextMethod: HTTPMethod
        let keepsBody: Bool
        var description: String { "\(method) \(status) -> \(nextMethod)" }
    }

    /// RFC 9110 §15.4: only POST becomes GET on 301/302; 303 makes everything but HEAD a GET; 307/308 keep all.
    static let methodRules: [MethodRow] = [
        MethodRow(status: 301, method: "POST", nextMethod: "GET", keepsBody: false),
        MethodRow(status: 302, method: "POST", nextMethod: "GET", keepsBody: false),
        MethodRow(status: 303, method: "POST", nextMethod: "GET", keepsBody: false),
        MethodRow(status: 307, method: "POST", nextMethod: "POST", keepsBody: true),
        MethodRow(status: 308, method: "POST", nextMethod: "POST", keepsBody: true),
        MethodRow(status: 301, method: "PUT", nextMethod: "PUT", keepsBody: true),
        MethodRow(status: 302, method: "PUT", nextMethod: "PUT", keepsBody: true),
        MethodRow(status: 303, method: "PUT", nextMethod: "GET", keepsBody: false),
        MethodRow(status: 301, method: "PATCH", nextMethod: "PATCH", keepsBody: true),
        MethodRow(status: 302, method: "DELETE", nextMethod: "DELETE", keepsBody: true),
        MethodRow(status: 303, method: "DELETE", nextMethod: "GET", keepsBody: false),
        MethodRow(status: 307, method: "PATCH", nextMethod: "PATCH", keepsBody: true),
        MethodRow(status: 303, method: "HEAD", nextMethod: "HEAD", keepsBody: true),
        MethodRow(status: 303, method: "GET", nextMethod: "GET", keepsBody: false),
    ]

    @Test(arguments: methodRules)
    func methodAndBodyFollowRFC9110(row: MethodRow) throws {
        var state = RedirectState(for: Self.hop(.get), limit: 10)
        let current = Self.upload(row.method)
        let decision = state.decide(status: row.status, location: "/v1/elsewhere", current: current)
        guard let next = Self.followed(decision) else { return }
        #expect(next.method == row.nextMethod)
        #expect(next.url?.absoluteString == "https://api.example.test/v1/elsewhere")
        let names = next.headerFields.map(\.name.rawName)
        if row.keepsBody {
            #expect(next.body.data == current.body.data)
            #expect(names == current.headerFields.map(\.name.rawName))
        } else {
            #expect(next.body.isEmpty)
            #expect(names == ["Authorization", "X-Trace"], "the headers describing the body go with it")
        }
    }

    @Test func bodyHeadersAreDroppedWhateverTheirLetterCase() throws {
        var state = RedirectState(for: Self.hop(.get), limit: 10)
        let current = Self.hop(
            .post,
            headers: [
                ("content-type", "a/b"), ("TRANSFER-ENCODING", "chunked"), ("Content-Language", "en"),
                ("Content-Location", "/x"), ("Accept", "*/*"),
            ], body: "x")
        guard let next = Self.followed(state.decide(status: 303, location: "/done", current: current)) else { return }
        #expect(next.headerFields.map(\.name.rawName) == ["Accept"])
    }

    struct OriginRow: Sendable, CustomStringConvertible {
        let location: String
        let keepsCredentials: Bool
        var description: String { location }
    }

    static let origins: [OriginRow] = [
        OriginRow(location: "/v2/items", keepsCredentials: true),  // same origin, relative
        OriginRow(location: "https://api.example.test/other", keepsCredentials: true),
        OriginRow(location: "https://API.EXAMPLE.TEST:443/other", keepsCredentials: true),  // case and default port
        OriginRow(location: "https://api.example.test:8443/other", keepsCredentials: false),  // another port
        OriginRow(location: "https://other.example.test/x", keepsCredentials: false),  // another host
        OriginRow(location: "//other.example.test/x", keepsCredentials: false),  // protocol-relative
        OriginRow(location: "https://example.test/x", keepsCredentials: false),  // a parent domain is another host
    ]

    @Test(arguments: origins)
    func credentialsStayWithinTheOriginalOrigin(row: OriginRow) throws {
        var state = RedirectState(for: Self.hop(.get), limit: 10)
        var current = Self.hop(
            .get,
            headers: [
                ("Authorization", "Bearer t"), ("Cookie", "s=1"), ("Proxy-Authorization", "Basic x"),
                ("Accept", "application/json"),
            ])
        current.headerFields[sensitive: "X-API-Key"] = "k"
        current.headerFields.append(HTTPField(name: "x-session", value: "s", isSensitive: true))
        guard let next = Self.followed(state.decide(status: 302, location: row.location, current: current)) else {
            return
        }
        let names = next.headerFields.map(\.name.rawName)
        if row.keepsCredentials {
            #expect(names == current.headerFields.map(\.name.rawName))
        } else {
            #expect(names == ["Accept"])
        }
    }

    @Test(arguments: [
        ("http://api.example.test:8443/a", "https://api.example.test:8443/b"),
        ("http://api.example.test/a", "https://api.example.test/b"),
    ])
    func aChangeOfSchemeAloneIsAnotherOrigin(from: String, to: String) throws {
        // http to https keeps host and port (or their defaults differ): still another origin, so credentials go.
        let start = try #require(URL(string: from))
        var state = RedirectState(for: Self.hop(.get, url: start), limit: 10)
        var current = Self.hop(.get, url: start, headers: [("Authorization", "Bearer t"), ("Accept", "*/*")])
        current.headerFields[sensitive: "X-API-Key"] = "k"
        guard let next = Self.followed(state.decide(status: 302, location: to, current: current)) else { return }
        #expect(next.url?.absoluteString == to)
        #expect(next.headerFields.map(\.name.rawName) == ["Accept"])
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func notFollowingDeliversEveryRedirectAsItIs(status: Int) {
        var state = RedirectState(for: Self.hop(.post, body: "x"), limit: 10, follows: false)
        guard case .deliver = state.decide(status: status, location: "/next", current: Self.hop(.post, body: "x"))
        else {
            Issue.record("a \(status) was not delivered")
            return
        }
        #expect(state.count == 0)
    }

    @Test func onceCredentialsLeaveTheyNeverComeBack() throws {
        var state = RedirectState(for: Self.hop(.get), limit: 10)
        var current = Self.hop(.get, headers: [("Authorization", "Bearer t")])
        guard let away = Self.followed(state.decide(status: 302, location: "https://other.test/x", current: current))
        else { return }
        #expect(away.headerFields.isEmpty)
        // Even a credential that reappears is stripped on every hop after leaving, back home included.
        current = away
        current.headerFields[.authorization] = "Bearer t"
        guard let back = Self.followed(state.decide(status: 302, location: Self.start.absoluteString, current: current))
        else { return }
        #expect(back.headerFields.isEmpty)
        #expect(state.leftOrigin)
    }

    @Test(arguments: [
        ("file:///etc/passwd", "scheme \"file\""), ("ftp://api.example.test/x", "scheme \"ftp\""),
        ("javascript:alert(1)", "scheme \"javascript\""), ("http:///nohost", "scheme \"http\""),
    ])
    func nonHTTPTargetsAreRefused(location: String, fragment: String) {
        var state = RedirectState(for: Self.hop(.get), limit: 10)
        let refusal = Self.refusal(state.decide(status: 302, location: location, current: Self.hop(.get)))
        #expect(refusal?.hasPrefix("redirectRefused: ") == true)
        #expect(refusal?.contains(fragment) == true)
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func httpsNeverLeadsToHTTP(status: Int) {
        var state = RedirectState(for: Self.hop(.get), limit: 10)
        let decision = state.decide(
            status: status, location: "http://api.example.test/v1/items", current: Self.hop(.get))
        #expect(Self.refusal(decision) == "redirectRefused: a redirect from https to http was refused")
    }

    @Test func httpMayLeadToHTTPS() {
        let plain = URL(string: "http://api.example.test/a")!
        var state = RedirectState(for: Self.hop(.get, url: plain), limit: 10)
        let decision = state.decide(
            status: 301, location: "https://api.example.test/a", current: Self.hop(.get, url: plain))
        #expect(Self.followed(decision)?.url?.absoluteString == "https://api.example.test/a")
    }

    @Test func theLimitCountsFollowedRedirects() {
        var state = RedirectState(for: Self.hop(.get), limit: 2)
        let current = Self.hop(.get)
        #expect(Self.followed(state.decide(status: 302, location: "/a", current: current)) != nil)
        #expect(Self.followed(state.decide(status: 302, location: "/b", current: current)) != nil)
        #expect(
            Self.refusal(state.decide(status: 302, location: "/c", current: current))
                == "tooManyRedirects: more than 2 redirects")
        var none = RedirectState(for: Self.hop(.get), limit: 0)
        #expect(
            Self.refusal(none.decide(status: 302, location: "/a", current: current))
                == "tooManyRedirects: more than 0 redirects")
    }

    @Test(
        arguments: [
            (300, "/a"), (304, "/a"), (305, "/a"), (306, "/a"), (200, "/a"), (302, nil), (302, ""),
            (301, "http://[::1/x"),
        ] as [(Int, String?)])
    func otherAnswersAreDeliveredAsTheyAre(status: Int, location: String?) {
        var state = RedirectState(for: Self.hop(.get), limit: 10)
        #expect(Self.delivers(state.decide(status: status, location: location, current: Self.hop(.get))))
        #expect(state.count == 0)
    }

    @Test func theFragmentOfALocationIsNeverSent() throws {
        var state = RedirectState(for: Self.hop(.get), limit: 10)
        guard let next = Self.followed(state.decide(status: 302, location: "/b?q=1#part", current: Self.hop(.get)))
        else { return }
        #expect(next.url?.absoluteString == "https://api.example.test/b?q=1")
    }

    @Test func aOneTimeStreamBodyIsNotFollowedWhereTheBodyWouldBeSentAgain() {
        var hop = HTTPRequest(method: .post, url: URL(string: "https://api.test/upload")!)
        hop.body = HTTPBody(once: AsyncThrowingStream { $0.finish() })
        for status in [307, 308] {
            var state = RedirectState(for: hop, limit: 10)
            guard
                case .refuse(.redirectRefused, let message) = state.decide(status: status, location: "/b", current: hop)
            else {
                Issue.record("a \(status) with a one-time stream body should be refused")
                continue
            }
            #expect(message.contains("one-time body"))
        }
        // A 303 drops the body, so there is nothing to send again.
        var state = RedirectState(for: hop, limit: 10)
        guard case .follow(let next) = state.decide(status: 303, location: "/b", current: hop) else {
            Issue.record("a 303 should be followed as a GET")
            return
        }
        #expect(next.method == .get && next.body.isEmpty)
    }
}
