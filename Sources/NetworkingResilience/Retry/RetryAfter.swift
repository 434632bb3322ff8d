import Foundation
import NetworkingHTTP
import NetworkingCore

/// A `Retry-After` header value (RFC 9110 §10.2.3): how long a server asks the client to wait before trying again,
/// as a number of seconds or as an HTTP-date.
///
/// Parsing never fails loudly and never traps, whatever the server sends:
/// - `120` is 120 seconds; surrounding spaces are ignored;
/// - a negative number such as `-5` is read as 0 seconds (retry at once): the server clearly means "no wait";
/// - a number too large for `Int64` saturates at `Int64.max` seconds, longer than any policy waits;
/// - a date in the past gives a wait of 0; a date in the far future a long wait;
/// - anything else (`soon`, `1.5`, `5s`, an empty value, a malformed or impossible date such as 30 February) is
///   not a `Retry-After` value at all: `init(_:now:)` returns `nil` and ``RetrySettings`` falls back to back-off.
///
/// Dates are read in the three forms HTTP allows: the preferred IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) and
/// the obsolete RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`) forms.
public enum RetryAfter: Sendable, Hashable {
    /// A number of seconds, never negative.
    case seconds(Int64)
    /// A point in time.
    case date(Date)

    /// Parses a header value; returns `nil` when it is neither a number of seconds nor an HTTP-date.
    ///
    /// - Parameters:
    ///   - value: The header's value.
    ///   - now: The current date, used only to place the two-digit years of RFC 850 dates in the right century.
    public init?(_ value: String, now: Date) {
        let text = String(FieldSyntax.trimmed(value))  // OWS only: a Unicode space is no part of the syntax
        if let seconds = Self.parseSeconds(text) {
            self = .seconds(seconds)
        } else if let date = HTTPDate.parse(text, now: now) {
            self = .date(date)
        } else {
            return nil
        }
    }

    /// The wait this value asks for, seen from `now`: never negative.
    ///
    /// - Parameter now: The current date; only dates depend on it.
    /// - Returns: The seconds, or the time until the date (0 once it has passed).
    public func delay(from now: Date) -> Duration {
        switch self {
        case .seconds(let seconds):
            return .seconds(max(seconds, 0))
        case .date(let date):
            let interval = date.timeIntervalSince(now)
            return interval > 0 ? .seconds(interval) : .zero
        }
    }

    /// `delay-seconds`, with an optional minus sign; negative reads as 0 and overflow saturates.
    private static func parseSeconds(_ text: String) -> Int64? {
        var digits = text.utf8[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        if negative { return 0 }
        return Int64(String(decoding: digits, as: UTF8.self)) ?? Int64.max
    }
}
