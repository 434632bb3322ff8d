/// The `Content-Length` of a response head, read as RFC 9112 §6.3 frames a body by it: one length, none, or a
/// value that makes the framing unrecoverable.
///
/// Foundation hands the transport one string per field name, repeated fields joined with commas, so `10, 4` may have
/// been one field or two: the rule is the same for both. It reads the octets (a comma is 0x2C, a digit 0x30 to 0x39),
/// never `Character`s, which Swift compares by canonical equivalence.
enum ResponseContentLength: Equatable, Sendable {
    /// The head has no `Content-Length`.
    case absent
    /// One length, possibly repeated with the same value (`42, 42`), which RFC 9110 §8.6 allows reading as one.
    case length(Int64)
    /// Different lengths, in the order they came: RFC 9112 §6.3 makes the framing unrecoverable.
    case conflicting([Int64])
    /// A member that is not a decimal number (RFC 9110 §8.6: `1*DIGIT`), or one too large to be a length.
    case invalid

    /// Reads the field value Foundation reports, `nil` when the head has none.
    init(fieldValue: String?) {
        guard let fieldValue else {
            self = .absent
            return
        }
        var lengths: [Int64] = []
        // RFC 9110 §5.6.1: a recipient ignores empty list members, and optional whitespace around each member.
        for member in fieldValue.utf8.split(separator: 0x2C, omittingEmptySubsequences: false) {
            let digits = Self.trimmed(member)
            if digits.isEmpty { continue }
            guard let length = Self.decimal(digits) else {
                self = .invalid
                return
            }
            if !lengths.contains(length) { lengths.append(length) }
        }
        switch lengths.count {
        case 0: self = .invalid
        case 1: self = .length(lengths[0])
        default: self = .conflicting(lengths)
        }
    }

    /// Why a response whose head has `field` cannot be read, or `nil` when its framing is sound.
    static func refusal(of field: String?) -> String? {
        switch ResponseContentLength(fieldValue: field) {
        case .absent, .length: nil
        case .conflicting(let lengths):
            "the response has conflicting Content-Length values (\(lengths.map(String.init).joined(separator: ", ")))"
        case .invalid:
            "the response has an invalid Content-Length (\(field ?? "")): its framing is unrecoverable"
        }
    }

    /// `member` without the spaces and tabs around it (RFC 9110 §5.6.3).
    private static func trimmed(_ member: Substring.UTF8View) -> Substring.UTF8View {
        var result = member
        while let first = result.first, first == 0x20 || first == 0x09 { result = result.dropFirst() }
        while let last = result.last, last == 0x20 || last == 0x09 { result = result.dropLast() }
        return result
    }

    /// The value of `1*DIGIT`, or `nil` for any other octet or a number past `Int64.max`.
    private static func decimal(_ digits: Substring.UTF8View) -> Int64? {
        var value: Int64 = 0
        for octet in digits {
            guard (0x30...0x39).contains(octet) else { return nil }
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = shifted.addingReportingOverflow(Int64(octet - 0x30))
            if overflowA || overflowB { return nil }
            value = sum
        }
        return value
    }
}
