import Foundation
import Networking
import Testing
import NetworkingTestSupport

/// Set-Cookie fields as Foundation hands them over, joined with commas, split and parsed: each attribute's good and
/// bad forms between two plain cookies, then several cookies joined in every order. A malformed attribute is
/// ignored alone; no cookie ever swallows its neighbour.
@Suite struct JoinedSetCookieTests {
    /// One cookie's field and what parsing it must give: its value, whether it has an expiry date, its max-age.
    struct Variant: Sendable, CustomTestStringConvertible {
        let field: String
        let value: String
        let hasExpires: Bool
        let maxAge: Int?
        var testDescription: String { field }
    }

    static let variants: [Variant] = [
        Variant(field: "v=1; Expires=Wed, 09 Jun 2021 10:18:14 GMT", value: "1", hasExpires: true, maxAge: nil),
        Variant(field: "v=1; expires=Wednesday, 09-Jun-21 10:18:14 GMT", value: "1", hasExpires: true, maxAge: nil),
        Variant(field: "v=1; Expires=Wed, 09-Jun-2021 10:18:14 GMT", value: "1", hasExpires: true, maxAge: nil),
        Variant(field: "v=1; Expires=Wed Jun  9 10:18:14 2021", value: "1", hasExpires: true, maxAge: nil),
        Variant(field: "v=1; Expires=soon", value: "1", hasExpires: false, maxAge: nil),
        Variant(field: "v=1; Expires=Wed", value: "1", hasExpires: false, maxAge: nil),
        Variant(field: "v=1; Expires=", value: "1", hasExpires: false, maxAge: nil),
        Variant(field: "v=1; Expires=Wed, garbage", value: "1", hasExpires: false, maxAge: nil),
        Variant(field: "v=1; Max-Age=3600", value: "1", hasExpires: false, maxAge: 3600),
        Variant(field: "v=1; Max-Age=forever", value: "1", hasExpires: false, maxAge: nil),
        Variant(field: "v=1; Max-Age=", value: "1", hasExpires: false, maxAge: nil),
        Variant(field: "v=1; Max-Age=-1", value: "1", hasExpires: false, maxAge: -1),
        Variant(field: "v=; Path=; Domain=", value: "", hasExpires: false, maxAge: nil),
        Variant(field: "v=1; Secure; HttpOnly; SameSite=bogus", value: "1", hasExpires: false, maxAge: nil),
    ]

    func parse(joined: String) -> [String: SetCookie] {
        let cookies = SetCookieFieldSplitter.cookieStrings(in: [joined], fieldsAreJoined: true).compactMap(
            SetCookie.parse)
        return Dictionary(cookies.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    @Test(arguments: variants)
    func eachAttributeFormKeepsBothNeighbours(variant: Variant) throws {
        let joined = ["before=a", variant.field, "after=b"].joined(separator: ", ")
        let cookies = parse(joined: joined)
        #expect(Set(cookies.keys) == ["before", "v", "after"], "\(joined)")
        #expect(cookies["before"]?.value == "a")
        #expect(cookies["after"]?.value == "b")
        let cookie = try #require(cookies["v"])
        #expect(cookie.value == variant.value)
        #expect((cookie.expires != nil) == variant.hasExpires)
        #expect(cookie.maxAge == variant.maxAge)
    }

    /// The three fields, and three more, in every one of the 720 orders.
    @Test func sixCookiesJoinedInEveryOrderAreSixCookies() {
        let fields = [
            "date=1; Expires=soon", "age=1; Max-Age=forever", "ok=1", "real=1; Expires=Wed, 09 Jun 2021 10:18:14 GMT",
            "empty=1; Expires=", "day=1; Expires=Wed",
        ]
        var orders = 0
        var failures: [String] = []
        func visit(_ order: [String], _ rest: [String]) {
            guard !rest.isEmpty else {
                orders += 1
                let joined = order.joined(separator: ", ")
                if Set(parse(joined: joined).keys) != ["date", "age", "ok", "real", "empty", "day"] {
                    failures.append(joined)
                }
                return
            }
            for index in rest.indices {
                var remaining = rest
                let next = remaining.remove(at: index)
                visit(order + [next], remaining)
            }
        }
        visit([], fields)
        #expect(orders == 720)
        #expect(failures.isEmpty, "lost a cookie in \(failures.count) orders, such as \(failures.prefix(2))")
    }
}
