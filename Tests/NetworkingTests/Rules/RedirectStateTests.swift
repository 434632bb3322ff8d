import Foundation
import Networking
import Testing

/// The redirect rules alone, as tables: no transport, no server.
@Suite struct RedirectStateTests {
    typealias Hop = RedirectState.Hop

    static let start = URL(string: "https://api.example.test/v1/items")!

    static func hop(
        _ method: String, url: URL = start, headers: [(String, String)] = [], body: String? = nil
    ) -> Hop {
        Hop(method: method, url: url, headers: headers.map { (name: $0.0, value: $0.1) }, body: body.map { Data($0.utf8) })
    }

    /// A request with a body and every kind of header: content, credentials, and an ordinary one.
    static func upload(_ method: String) -> Hop {
        hop(
            method,
            headers: [
                ("Content-Type", "application/json"), ("Content-Length", "27"), ("Content-Encoding", "identity"),
                ("Authorization", "Bearer t"), ("X-Trace", "1"),
            ], body: #"{"name":"Ada","n":12345678}"#)
    }

    struct MethodRow: Sendable, CustomStringConvertible {
        let status: Int
        let method: String
        let nextMethod: String
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
        var state = RedirectState(url: Self.start, limit: 10)
        let current = Self.upload(row.method)
        let decision = state.decide(status: row.status, location: "/v1/elsewhere", current: current)
        guard case .follow(let next) = decision else {
            Issue.record("expected a hop, got \(decision)")
            return
        }
        #expect(next.method == row.nextMethod)
        #expect(next.url.absoluteString == "https://api.example.test/v1/elsewhere")
        let names = next.headers.map { $0.name }
        if row.keepsBody {
            #expect(next.body == current.body)
            #expect(names == current.headers.map { $0.name })
        } else {
            #expect(next.body == nil)
            #expect(names == ["Authorization", "X-Trace"], "the headers describing the body go with it")
        }
    }

    @Test func bodyHeadersAreDroppedWhateverTheirLetterCase() throws {
        var state = RedirectState(url: Self.start, limit: 10)
        let current = Self.hop(
            "POST",
            headers: [
                ("content-type", "a/b"), ("TRANSFER-ENCODING", "chunked"), ("Content-Language", "en"),
                ("Content-Location", "/x"), ("Accept", "*/*"),
            ], body: "x")
        guard case .follow(let next) = state.decide(status: 303, location: "/done", current: current) else {
            Issue.record("expected a hop")
            return
        }
        #expect(next.headers.map { $0.name } == ["Accept"])
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
        var state = RedirectState(url: Self.start, limit: 10, sensitiveHeaderNames: ["x-api-key", "X-Session"])
        let current = Self.hop(
            "GET",
            headers: [
                ("Authorization", "Bearer t"), ("Cookie", "s=1"), ("Proxy-Authorization", "Basic x"),
                ("X-API-Key", "k"), ("x-session", "s"), ("Accept", "application/json"),
            ])
        guard case .follow(let next) = state.decide(status: 302, location: row.location, current: current) else {
            Issue.record("expected a hop")
            return
        }
        let names = next.headers.map { $0.name }
        if row.keepsCredentials {
            #expect(names == current.headers.map { $0.name })
        } else {
            #expect(names == ["Accept"])
        }
    }

    @Test func onceCredentialsLeaveTheyNeverComeBack() throws {
        var state = RedirectState(url: Self.start, limit: 10)
        var current = Self.hop("GET", headers: [("Authorization", "Bearer t")])
        guard case .follow(let away) = state.decide(status: 302, location: "https://other.test/x", current: current)
        else {
            Issue.record("expected a hop")
            return
        }
        #expect(away.headers.isEmpty)
        // A behavior cannot add it back on a later hop either: the transport strips every hop after leaving.
        current = away
        current.headers = [(name: "Authorization", value: "Bearer t")]
        guard case .follow(let back) = state.decide(status: 302, location: Self.start.absoluteString, current: current)
        else {
            Issue.record("expected a hop")
            return
        }
        #expect(back.headers.isEmpty)
        #expect(state.leftOrigin)
    }

    @Test(arguments: [
        ("file:///etc/passwd", "scheme \"file\""), ("ftp://api.example.test/x", "scheme \"ftp\""),
        ("javascript:alert(1)", "scheme \"javascript\""), ("http:///nohost", "scheme \"http\""),
    ])
    func nonHTTPTargetsAreRefused(location: String, fragment: String) {
        var state = RedirectState(url: Self.start, limit: 10)
        let decision = state.decide(status: 302, location: location, current: Self.hop("GET"))
        guard case .refuse(let code, let message) = decision else {
            Issue.record("got \(decision)")
            return
        }
        #expect(code == .redirectRefused)
        #expect(message.contains(fragment))
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func httpsNeverLeadsToHTTP(status: Int) {
        var state = RedirectState(url: Self.start, limit: 10)
        let decision = state.decide(status: status, location: "http://api.example.test/v1/items", current: Self.hop("GET"))
        #expect(decision == .refuse(.redirectRefused, "a redirect from https to http was refused"))
    }

    @Test func httpMayLeadToHTTPS() {
        let plain = URL(string: "http://api.example.test/a")!
        var state = RedirectState(url: plain, limit: 10)
        let decision = state.decide(
            status: 301, location: "https://api.example.test/a", current: Self.hop("GET", url: plain))
        #expect(decision == .follow(Self.hop("GET", url: URL(string: "https://api.example.test/a")!)))
    }

    @Test func theLimitCountsFollowedRedirects() {
        var state = RedirectState(url: Self.start, limit: 2)
        let current = Self.hop("GET")
        #expect(state.decide(status: 302, location: "/a", current: current) != .deliver)
        #expect(state.decide(status: 302, location: "/b", current: current) != .deliver)
        #expect(state.decide(status: 302, location: "/c", current: current) == .refuse(.tooManyRedirects, "more than 2 redirects"))
        var none = RedirectState(url: Self.start, limit: 0)
        #expect(none.decide(status: 302, location: "/a", current: current) == .refuse(.tooManyRedirects, "more than 0 redirects"))
    }

    @Test(arguments: [
        (300, "/a"), (304, "/a"), (305, "/a"), (306, "/a"), (200, "/a"), (302, nil), (302, ""), (301, "http://[::1/x"),
    ] as [(Int, String?)])
    func otherAnswersAreDeliveredAsTheyAre(status: Int, location: String?) {
        var state = RedirectState(url: Self.start, limit: 10)
        #expect(state.decide(status: status, location: location, current: Self.hop("GET")) == .deliver)
        #expect(state.count == 0)
    }

    @Test func theFragmentOfALocationIsNeverSent() throws {
        var state = RedirectState(url: Self.start, limit: 10)
        guard case .follow(let next) = state.decide(status: 302, location: "/b?q=1#part", current: Self.hop("GET"))
        else {
            Issue.record("expected a hop")
            return
        }
        #expect(next.url.absoluteString == "https://api.example.test/b?q=1")
    }
}
