import Foundation
import Testing

@testable import NetworkingHTTP
import NetworkingTestSupport

/// The `Content-Length` rule every transport frames a response by: one length, or an unrecoverable framing.
@Suite struct ContentLengthTests {
    /// `(field values as received, the framing, the rule that decides it)`.
    static let table: [([String], ContentLength.Framing, String)] = [
        ([], .absent, "RFC 9112 §6.3 item 7: no length, the body is framed otherwise"),
        (["10"], .length(10), "RFC 9110 §8.6: Content-Length = 1*DIGIT"),
        (["0"], .length(0), "RFC 9110 §8.6: zero is a length"),
        (["007"], .length(7), "RFC 9110 §8.6: leading zeros are digits"),
        ([" 10\t"], .length(10), "RFC 9110 §5.6.3: optional whitespace around the value"),
        (["10, 10"], .length(10), "RFC 9110 §8.6: a list of identical values is that value"),
        (["10,10 , 10"], .length(10), "RFC 9110 §5.6.1: list members with or without whitespace"),
        (["10", "10"], .length(10), "RFC 9110 §5.3: repeated fields are one list"),
        (["10, ,10"], .length(10), "RFC 9110 §5.6.1: an empty list member is ignored"),
        (["9223372036854775807"], .length(Int64.max), "the largest length a body can have here"),
        (["10, 4"], .invalid("conflicting"), "RFC 9112 §6.3 item 5: different values are invalid"),
        (["4, 10"], .invalid("conflicting"), "RFC 9112 §6.3 item 5: in either order"),
        (["10", "4"], .invalid("conflicting"), "RFC 9112 §6.3 item 5: in two fields too"),
        (["5", "10"], .invalid("conflicting"), "RFC 9112 §6.3 item 5: the last value is not the one"),
        (["-1"], .invalid("not a length"), "RFC 9110 §8.6: no sign"),
        (["+10"], .invalid("not a length"), "RFC 9110 §8.6: no sign"),
        (["1e3"], .invalid("not a length"), "RFC 9110 §8.6: digits only"),
        (["10 4"], .invalid("not a length"), "RFC 9110 §8.6: one number per member"),
        (["ten"], .invalid("not a length"), "RFC 9110 §8.6: digits only"),
        (["\u{663}"], .invalid("not a length"), "RFC 9110 §8.6: DIGIT is ASCII (an Arabic-Indic three is not)"),
        (["9223372036854775808"], .invalid("not a length"), "past Int64: no body is that long"),
        ([""], .invalid("empty"), "RFC 9110 §8.6: a field with no value"),
        ([" , "], .invalid("empty"), "RFC 9110 §8.6: a list with no member"),
        ([","], .invalid("empty"), "RFC 9110 §8.6: a list with no member"),
        (["010, 10"], .length(10), "RFC 9110 §8.6: the same decimal value"),
        (["10, 4, 10"], .invalid("conflicting"), "RFC 9112 §6.3 item 5: a value differs, wherever it stands"),
        (["10, abc"], .invalid("not a length"), "RFC 9110 §8.6: every member is digits"),
        (["10; 4"], .invalid("not a length"), "RFC 9110 §5.6.1: the list separator is the comma octet"),
        (["10\u{037E} 4"], .invalid("not a length"), "RFC 9110 §5.6.1: GREEK QUESTION MARK is no separator octet"),
        (["0x10"], .invalid("not a length"), "RFC 9110 §8.6: decimal digits only"),
    ]

    @Test(arguments: table)
    func framingFollowsTheRFC(values: [String], expected: ContentLength.Framing, rule: String) {
        let framing = ContentLength.framing(of: values)
        switch (framing, expected) {
        case (.invalid(let reason), .invalid(let words)):
            #expect(reason.contains(words), "\(rule): \(reason)")
        default:
            #expect(framing == expected, "\(rule)")
        }
    }

    @Test func theReasonShowsTheValuesAsReceivedWithoutControlCharacters() {
        let framing = ContentLength.framing(of: ["10, 4", "1\u{1b}[31m"])
        guard case .invalid(let reason) = framing else {
            Issue.record("expected an invalid framing, got \(framing)")
            return
        }
        #expect(reason.contains("10, 4"))
        #expect(!reason.contains("\u{1b}"))
    }
}
