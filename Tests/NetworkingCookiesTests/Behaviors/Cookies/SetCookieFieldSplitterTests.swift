import Foundation
import Networking
import Testing
import NetworkingTestSupport

/// RFC 6265 §5.2 (each `Set-Cookie` field is one cookie) and the joined form some transports deliver: one row per
/// rule. Listed in `Networking.docc/Conformance.md`.
@Suite struct SetCookieFieldSplitterTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let section: String
        let rule: String
        let fields: [String]
        let joined: Bool
        let expected: [String]
        var testDescription: String { "\(section) \(rule)" }
    }

    static let rows: [Row] = [
        Row(
            section: "§5.2", rule: "fields kept apart are never split on commas", fields: ["a=x, b=evil", "c=1"],
            joined: false, expected: ["a=x, b=evil", "c=1"]),
        Row(
            section: "§5.2", rule: "fields kept apart are passed on as they are", fields: [" a=1 ", ""],
            joined: false, expected: [" a=1 ", ""]),
        Row(
            section: "§5.2, joined form", rule: "a joined value splits where a new name=value starts",
            fields: ["a=1, b=2,c=3"], joined: true, expected: ["a=1", "b=2", "c=3"]),
        Row(
            section: "§5.2, joined form", rule: "never inside an Expires date (RFC 1123 form)",
            fields: ["a=1; Expires=Wed, 09 Jun 2021 10:18:14 GMT; Path=/, b=2; Secure"], joined: true,
            expected: ["a=1; Expires=Wed, 09 Jun 2021 10:18:14 GMT; Path=/", "b=2; Secure"]),
        Row(
            section: "§5.2, joined form", rule: "never inside an Expires date (RFC 850 form, any case)",
            fields: ["a=1; expires=Sunday, 06-Nov-94 08:49:37 GMT, b=2"], joined: true,
            expected: ["a=1; expires=Sunday, 06-Nov-94 08:49:37 GMT", "b=2"]),
        Row(
            section: "§5.2, joined form", rule: "never inside an Expires date (dashes and a four-digit year)",
            fields: ["a=1; Expires=Wed, 09-Jun-2021 10:18:14 GMT, b=2"], joined: true,
            expected: ["a=1; Expires=Wed, 09-Jun-2021 10:18:14 GMT", "b=2"]),
        Row(
            section: "§5.2, joined form", rule: "a bad Expires value does not hide the cookie after it",
            fields: ["date=1; Expires=soon, age=1; Max-Age=forever, ok=1"], joined: true,
            expected: ["date=1; Expires=soon", "age=1; Max-Age=forever", "ok=1"]),
        Row(
            section: "§5.2, joined form", rule: "a weekday alone is no date: the next name=value is a cookie",
            fields: ["a=1; Expires=Wed, x=y"], joined: true, expected: ["a=1; Expires=Wed", "x=y"]),
        Row(
            section: "§5.2, joined form", rule: "an empty Expires or Max-Age ends its cookie at the next pair",
            fields: ["a=1; Expires=, b=2; Max-Age=, c=3"], joined: true,
            expected: ["a=1; Expires=", "b=2; Max-Age=", "c=3"]),
        Row(
            section: "§5.2, joined form", rule: "a comma in a bad Expires not followed by a pair stays in it",
            fields: ["a=1; Expires=Wed, garbage; Path=/, b=2"], joined: true,
            expected: ["a=1; Expires=Wed, garbage; Path=/", "b=2"]),
        Row(
            section: "§5.2, joined form", rule: "a comma not followed by a token and = stays in its cookie",
            fields: ["a=x,y, b c=1, =2"], joined: true, expected: ["a=x,y, b c=1, =2"]),
        Row(
            section: "§5.2, joined form", rule: "spaces before the name and the = are allowed",
            fields: ["a=1,  b =2"], joined: true, expected: ["a=1", "b =2"]),
        Row(
            section: "§5.2, joined form", rule: "several joined fields are each split", fields: ["a=1, b=2", "c=3"],
            joined: true, expected: ["a=1", "b=2", "c=3"]),
        Row(
            section: "§5.2, joined form", rule: "empty pieces are dropped", fields: ["", " , a=1"], joined: true,
            expected: ["a=1"]),
        Row(
            section: "§5.2, joined form (limitation)", rule: "a value holding ', x=y' reads as two cookies",
            fields: ["a=x, b=evil"], joined: true, expected: ["a=x", "b=evil"]),
    ]

    @Test(arguments: rows) func setCookieFieldsBecomeOneStringPerCookie(_ row: Row) {
        #expect(SetCookieFieldSplitter.cookieStrings(in: row.fields, fieldsAreJoined: row.joined) == row.expected)
    }

    @Test func theJoinedFormIsNotTheDefault() {
        #expect(SetCookieFieldSplitter.cookieStrings(in: ["a=1, b=2"]) == ["a=1, b=2"])
    }

    /// §5.2, 6265bis §5.6 step 1: a field with a control character is ignored alone, apart or joined; a nameless
    /// field is ignored apart, but joined it stays in the value of the cookie before it.
    @Test(arguments: [false, true])
    func aMalformedFieldIsIgnoredAloneNotWithItsNeighbour(joined: Bool) {
        let fields = joined ? ["ctl=a\u{1}b, ok=1, junk, also=2"] : ["ctl=a\u{1}b", "ok=1", "junk", "also=2"]
        let parsed = SetCookieFieldSplitter.cookieStrings(in: fields, fieldsAreJoined: joined)
            .compactMap(SetCookie.parse)
        let expected = joined ? ["ok": "1, junk", "also": "2"] : ["ok": "1", "also": "2"]
        #expect(Dictionary(uniqueKeysWithValues: parsed.map { ($0.name, $0.value) }) == expected)
    }

    /// A quadratic splitter would take many minutes here and hit the time limit; a linear one takes milliseconds.
    @Test(.timeLimit(.minutes(1))) func longJoinedInputIsSplitWhole() {
        let long =
            "a=1; Expires=" + String(repeating: "W", count: 100_000) + ", " + String(repeating: "t", count: 100_000)
        let joined = long + String(repeating: ", b=1", count: 20_000) + String(repeating: ",x", count: 50_000)
        let pieces = SetCookieFieldSplitter.split(joined: joined)
        #expect(pieces.count == 20_001)
        #expect(pieces.first?.contains("W, ttt") == true)
        #expect(pieces.last?.hasPrefix("b=1,x,x") == true)
    }
}
