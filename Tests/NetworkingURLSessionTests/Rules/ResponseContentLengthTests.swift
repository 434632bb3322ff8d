import Foundation
import Testing

@testable import NetworkingURLSession
import NetworkingTestSupport

/// The `Content-Length` rule of `URLSessionTransport`, on the one string Foundation reports for the field (repeated
/// fields joined with ", ").
@Suite struct ResponseContentLengthTests {
    @Test(arguments: [
        // RFC 9112 §6.3 (item 6): one length frames the body.
        (String?("10"), ResponseContentLength.length(10)),
        ("0", .length(0)),
        (" \t10\t ", .length(10)),  // RFC 9110 §5.6.3: optional whitespace around the value
        ("9223372036854775807", .length(Int64.max)),
        // RFC 9110 §8.6: a list of identical values may be read as that value.
        ("10, 10", .length(10)),
        ("10,10", .length(10)),
        ("010, 10", .length(10)),  // the same decimal value
        ("10, , 10", .length(10)),  // RFC 9110 §5.6.1: empty list members are ignored
        // RFC 9112 §6.3 (item 5): differing values are an unrecoverable framing error, one field or several.
        ("10, 4", .conflicting([10, 4])),
        ("5, 10", .conflicting([5, 10])),
        ("10, 4, 10", .conflicting([10, 4])),
        // RFC 9110 §8.6: Content-Length = 1*DIGIT; anything else is invalid (RFC 9112 §6.3, item 5).
        ("", .invalid),
        (",", .invalid),
        ("abc", .invalid),
        ("-1", .invalid),
        ("+10", .invalid),
        ("1 0", .invalid),
        ("10; 4", .invalid),
        ("0x10", .invalid),
        ("10, abc", .invalid),
        ("9223372036854775808", .invalid),  // past Int64.max
        ("1\u{0660}", .invalid),  // ARABIC-INDIC DIGIT ZERO is a Character digit, not an octet 0x30 to 0x39
        ("10\u{037E} 4", .invalid),  // GREEK QUESTION MARK is not the comma (or semicolon) octet
        (nil, .absent),
    ])
    func aFieldValueReadsAsOneLengthNoneOrAnUnrecoverableFraming(value: String?, expected: ResponseContentLength) {
        #expect(ResponseContentLength(fieldValue: value) == expected)
    }

    @Test func onlyConflictingOrInvalidLengthsAreRefusedAndTheReasonSaysWhich() {
        #expect(ResponseContentLength.refusal(of: nil) == nil)
        #expect(ResponseContentLength.refusal(of: "10, 10") == nil)
        #expect(
            ResponseContentLength.refusal(of: "10, 4") == "the response has conflicting Content-Length values (10, 4)")
        #expect(ResponseContentLength.refusal(of: "ten")?.contains("invalid Content-Length (ten)") == true)
    }
}
