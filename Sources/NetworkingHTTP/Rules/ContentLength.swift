/// What a message's `Content-Length` field lines say about its framing (RFC 9110 §8.6, RFC 9112 §6.3), read on
/// their bytes: shared by the transports, so each refuses the same responses.
///
/// - No field: ``Framing/absent``.
/// - One decimal value, or several that are all the same, in one field as a list (`10, 10`) or in repeated fields:
///   ``Framing/length(_:)`` (RFC 9110 §8.6 lets a recipient take the single value).
/// - Anything else (two different values, `10, 4` included; a sign, a letter, an empty value, a number past
///   `Int64`): ``Framing/invalid(_:)``: the framing is unrecoverable (RFC 9112 §6.3, item 5), and a client must
///   refuse the response rather than guess where its body ends.
package enum ContentLength {
    /// The framing the field lines give.
    package enum Framing: Equatable, Sendable {
        /// No `Content-Length` field.
        case absent
        /// The body's length in bytes.
        case length(Int64)
        /// Why the lines give no usable length: words for an error message.
        case invalid(String)
    }

    /// The framing given by `values`, the `Content-Length` field values in the order they came.
    package static func framing(of values: [String]) -> Framing {
        guard !values.isEmpty else { return .absent }
        var found: Int64?
        for value in values {
            // A list member may be empty (RFC 9110 §5.6.1: a recipient ignores it); a field with no member is not.
            var members = 0
            for member in value.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
                let digits = trimmed(member)
                if digits.isEmpty { continue }
                members += 1
                guard let number = decimal(digits) else {
                    return .invalid("the response's Content-Length is not a length (\(shown(values)))")
                }
                if let found, found != number {
                    return .invalid("the response has conflicting Content-Length values (\(shown(values)))")
                }
                found = number
            }
            if members == 0 { return .invalid("the response has an empty Content-Length") }
        }
        return found.map { .length($0) } ?? .absent
    }

    /// `1*DIGIT` as a number, or `nil` (a sign, another character, or more than `Int64` holds).
    private static func decimal(_ digits: Substring.UTF8View.SubSequence) -> Int64? {
        var number: Int64 = 0
        for byte in digits {
            guard (0x30...0x39).contains(byte) else { return nil }
            let (times, overflow) = number.multipliedReportingOverflow(by: 10)
            let (sum, overflowAgain) = times.addingReportingOverflow(Int64(byte - 0x30))
            guard !overflow, !overflowAgain else { return nil }
            number = sum
        }
        return number
    }

    /// `bytes` without the optional whitespace around a list member (RFC 9110 §5.6.3: spaces and tabs).
    private static func trimmed(_ bytes: Substring.UTF8View.SubSequence) -> Substring.UTF8View.SubSequence {
        var result = bytes
        while let first = result.first, first == 0x20 || first == 0x09 { result = result.dropFirst() }
        while let last = result.last, last == 0x20 || last == 0x09 { result = result.dropLast() }
        return result
    }

    /// The values as they came, for the message (each cut at 40 characters: a server chooses them).
    private static func shown(_ values: [String]) -> String {
        DisplayText.escapingControlCharacters(values.map { String($0.prefix(40)) }.joined(separator: ", "))
    }
}
