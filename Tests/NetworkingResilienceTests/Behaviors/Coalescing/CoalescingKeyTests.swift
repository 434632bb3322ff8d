import Foundation
import Networking
import Testing
import NetworkingTestSupport

/// `CoalescingKey` as a table: which requests count as the same question.
@Suite struct CoalescingKeyTests {
    private static func request(
        _ method: HTTPMethod = .get, _ url: String = "https://api.example.test/items?page=2",
        fields: [(String, String)] = [], body: HTTPRequest.Body = .empty, followsRedirects: Bool? = nil
    ) -> HTTPRequest {
        var headers = HTTPFields()
        for (name, value) in fields { headers.append(HTTPField(name: HTTPField.Name(name), value: value)) }
        var request = HTTPRequest(method: method, url: URL(string: url)!, headerFields: headers, body: body)
        request.followsRedirects = followsRedirects
        return request
    }

    struct Pair: Sendable, CustomTestStringConvertible {
        let label: String
        let lhs: HTTPRequest
        let rhs: HTTPRequest
        let same: Bool
        var testDescription: String { label }
    }

    static let pairs: [Pair] = [
        Pair(label: "identical", lhs: request(), rhs: request(), same: true),
        Pair(
            label: "scheme and host ignore case", lhs: request(.get, "HTTPS://API.Example.TEST/items?page=2"),
            rhs: request(), same: true),
        Pair(
            label: "path is exact", lhs: request(.get, "https://api.example.test/Items?page=2"), rhs: request(),
            same: false),
        Pair(
            label: "query is exact", lhs: request(.get, "https://api.example.test/items?page=3"), rhs: request(),
            same: false),
        Pair(
            label: "port counts", lhs: request(.get, "https://api.example.test:8443/items?page=2"), rhs: request(),
            same: false),
        Pair(label: "GET and HEAD differ", lhs: request(.head), rhs: request(), same: false),
        Pair(
            label: "header names ignore case", lhs: request(.get, fields: [("Accept", "a/b")]),
            rhs: request(.get, fields: [("aCCEPT", "a/b")]), same: true),
        Pair(
            label: "header values are exact", lhs: request(.get, fields: [("Accept", "a/b")]),
            rhs: request(.get, fields: [("Accept", "A/B")]), same: false),
        Pair(
            label: "Authorization counts", lhs: request(.get, fields: [("Authorization", "Bearer a")]),
            rhs: request(.get, fields: [("Authorization", "Bearer b")]), same: false),
        Pair(
            label: "a missing header counts", lhs: request(.get, fields: [("Authorization", "Bearer a")]),
            rhs: request(), same: false),
        Pair(
            label: "Cookie counts", lhs: request(.get, fields: [("Cookie", "a=1")]),
            rhs: request(.get, fields: [("Cookie", "a=2")]), same: false),
        Pair(
            label: "fields of different names in any order",
            lhs: request(.get, fields: [("Accept", "a/b"), ("X-Tenant", "7")]),
            rhs: request(.get, fields: [("X-Tenant", "7"), ("Accept", "a/b")]), same: true),
        Pair(
            label: "repeated fields keep their order", lhs: request(.get, fields: [("X-Tag", "1"), ("X-Tag", "2")]),
            rhs: request(.get, fields: [("X-Tag", "2"), ("X-Tag", "1")]), same: false),
        Pair(
            label: "default-ignored trace headers",
            lhs: request(.get, fields: [("traceparent", "00-a"), ("X-Request-ID", "1")]),
            rhs: request(.get, fields: [("traceparent", "00-b"), ("X-Request-ID", "2")]), same: true),
        Pair(
            label: "redirect choice counts", lhs: request(followsRedirects: false), rhs: request(followsRedirects: nil),
            same: false),
    ]

    @Test(arguments: pairs) func keysMatchOnlyForTheSameQuestion(_ pair: Pair) throws {
        let ignored = CoalescingSettings.default.ignoredHeaderNames
        let lhs = try #require(CoalescingKey(pair.lhs, ignoring: ignored))
        let rhs = try #require(CoalescingKey(pair.rhs, ignoring: ignored))
        #expect((lhs == rhs) == pair.same)
        if pair.same { #expect(lhs.hashValue == rhs.hashValue) }
    }

    @Test func onlyGETAndHEADWithoutABodyHaveAKey() {
        #expect(CoalescingKey(Self.request(.get)) != nil)
        #expect(CoalescingKey(Self.request(.head)) != nil)
        for method: HTTPMethod in [.post, .put, .patch, .delete, "OPTIONS"] {
            #expect(CoalescingKey(Self.request(method)) == nil)
        }
        #expect(CoalescingKey(Self.request(.get, body: .data(Data("x".utf8)))) == nil)
        // An empty body is no body: nothing is sent either way.
        #expect(CoalescingKey(Self.request(.get, body: .data(Data()))) != nil)
    }

    @Test func ignoredNamesAreLeftOutAndTheRestKept() throws {
        let key = try #require(
            CoalescingKey(
                Self.request(.get, fields: [("X-Debug", "1"), ("Accept", "a/b"), ("X-Tag", "2"), ("X-Tag", "1")]),
                ignoring: ["x-debug"]))
        #expect(key.headerFields.map(\.name) == ["accept", "x-tag", "x-tag"])
        #expect(key.headerFields.map(\.value) == ["a/b", "2", "1"])
        #expect(key.method == .get)
        #expect(key.target == "https://api.example.test/items?page=2")
    }

    @Test func descriptionShowsNeitherTheQueryNorHeaderValues() throws {
        let key = try #require(
            CoalescingKey(
                Self.request(
                    .get, "https://api.example.test/items?token=s3cret", fields: [("Authorization", "Bearer s3cret")])))
        #expect(key.description == "GET https://api.example.test/items (1 header field)")
    }
}
