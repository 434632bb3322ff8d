import Foundation
import Networking
import Testing
import NetworkingTestSupport

/// RFC 6265 §5.2 as a table, then 100,000 random and mutated inputs through the joined-field splitter and the
/// parser (the rule-by-rule table is `SetCookieConformanceTests`).
@Suite struct SetCookieTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let line: String
        let expected: SetCookie?
        var testDescription: String { line }
    }

    static let rows: [Row] = [
        Row(line: "sid=31d4", expected: SetCookie(name: "sid", value: "31d4")),
        Row(line: "  sid = 31d4  ", expected: SetCookie(name: "sid", value: "31d4")),
        Row(line: "sid=", expected: SetCookie(name: "sid", value: "")),
        Row(line: "sid=a=b", expected: SetCookie(name: "sid", value: "a=b")),
        Row(line: #"sid="quoted""#, expected: SetCookie(name: "sid", value: #""quoted""#)),
        Row(line: "no-equals", expected: nil),
        Row(line: "=value", expected: nil),
        Row(line: "", expected: nil),
        Row(line: "a=b\u{1}c", expected: nil),
        Row(line: "a=b\u{7F}", expected: nil),
        Row(line: "a=" + String(repeating: "x", count: 4_096), expected: nil),  // 4,097 bytes
        Row(
            line: "sid=1; Path=/account; Domain=.Example.COM; Secure; HttpOnly",
            expected: SetCookie(
                name: "sid", value: "1", domain: "example.com", path: "/account", isSecure: true, isHTTPOnly: true)),
        Row(line: "sid=1; max-age=3600", expected: SetCookie(name: "sid", value: "1", maxAge: 3600)),
        Row(line: "sid=1; Max-Age=-5", expected: SetCookie(name: "sid", value: "1", maxAge: -5)),
        Row(line: "sid=1; Max-Age=1e3", expected: SetCookie(name: "sid", value: "1")),
        Row(line: "sid=1; Max-Age=", expected: SetCookie(name: "sid", value: "1")),
        Row(
            line: "sid=1; Max-Age=99999999999999999999999",
            expected: SetCookie(name: "sid", value: "1", maxAge: 315_360_000)),
        Row(line: "sid=1; Max-Age=10; Max-Age=20", expected: SetCookie(name: "sid", value: "1", maxAge: 20)),
        Row(
            line: "sid=1; Expires=Wed, 09 Jun 2021 10:18:14 GMT",
            expected: SetCookie(name: "sid", value: "1", expires: Date(timeIntervalSince1970: 1_623_233_894))),
        Row(line: "sid=1; Expires=soon", expected: SetCookie(name: "sid", value: "1")),
        Row(line: "sid=1; Domain=", expected: SetCookie(name: "sid", value: "1")),
        Row(line: "sid=1; Domain=.", expected: SetCookie(name: "sid", value: "1")),
        Row(line: "sid=1; Path=relative", expected: SetCookie(name: "sid", value: "1", path: "relative")),
        Row(line: "sid=1; Path=/a; Path=b", expected: SetCookie(name: "sid", value: "1", path: "b")),
        Row(
            line: "sid=1; SameSite=Lax; Priority=High; ;;", expected: SetCookie(name: "sid", value: "1", sameSite: .lax)
        ),
        Row(line: "sid=1; secure=no", expected: SetCookie(name: "sid", value: "1", isSecure: true)),
    ]

    @Test(arguments: rows) func linesParseAsRFC6265Says(_ row: Row) {
        #expect(SetCookie.parse(row.line) == row.expected)
    }

    @Test func hundredThousandRandomAndMutatedInputsNeverCrashAndStayBounded() {
        var random = BehaviorFakes.SeededGenerator(seed: 5_2)
        let alphabet = Array("=;, \t\"./-:0123456789abcXYZ\u{0}\u{1}\u{7F}é\r\n".unicodeScalars)
        let seeds = Self.rows.map(\.line).filter { $0.count < 200 }
        let start = ContinuousClock.now
        var parsed = 0
        for round in 0..<100_000 {
            var scalars: [Unicode.Scalar]
            if round % 2 == 0 {
                scalars = (0..<Int.random(in: 0...60, using: &random)).map { _ in
                    alphabet.randomElement(using: &random)!
                }
            } else {
                scalars = Array(seeds.randomElement(using: &random)!.unicodeScalars)
                for _ in 0..<Int.random(in: 1...5, using: &random) {
                    let position = Int.random(in: 0...scalars.count, using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: scalars.insert(alphabet.randomElement(using: &random)!, at: position)
                    case 1: if position < scalars.count { scalars.remove(at: position) }
                    default: if position < scalars.count { scalars[position] = alphabet.randomElement(using: &random)! }
                    }
                }
            }
            let line = String(String.UnicodeScalarView(scalars))
            for piece in SetCookieFieldSplitter.split(joined: line) {
                guard let cookie = SetCookie.parse(piece) else { continue }
                parsed += 1
                #expect(!cookie.name.isEmpty)
                #expect(!cookie.value.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F })
                if let cookie = Cookie(cookie, from: URL(string: "https://a.example.com/x/y")!, at: Date()) {
                    _ = cookie.matches(URL(string: "https://b.a.example.com/x/y/z")!)
                }
            }
        }
        let huge = "a=" + String(repeating: ";", count: 200_000) + String(repeating: "Max-Age=9", count: 10_000)
        #expect(SetCookie.parse(huge)?.name == "a")
        #expect(parsed > 1_000)
        // Bounded time: generous, to fail only on a pathological (super-linear) parser, not a slow machine.
        #expect(ContinuousClock.now - start < .seconds(30))
    }
}
