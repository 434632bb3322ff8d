import Foundation
import NetworkingHTTP
import NetworkingCore

/// One `Set-Cookie` field value parsed as RFC 6265 §5.2 says, before the storage model (``Cookie``) decides whether
/// to keep it.
///
/// ```swift
/// let cookie = SetCookie.parse("sid=31d4; Path=/; Secure; HttpOnly; Max-Age=3600")
/// cookie?.name      // "sid"
/// cookie?.maxAge    // 3600
/// SetCookie.parse("no-equals-sign")   // nil: ignored
/// ```
/// One field is exactly one cookie: a comma is an ordinary character here (see `SetCookieFieldSplitter` for the
/// fields a transport joined). The text is read byte by byte, as the RFC's octets:
/// - ignored whole: a field with a control character other than tab (RFC 6265bis §5.6 step 1), without `=`
///   before its first `;` (§5.2 step 2), with an empty name (§5.2 step 5), or whose name and value are longer than
///   4,096 bytes together (RFC 6265bis §5.6 step 5);
/// - name and value lose their leading and trailing spaces and tabs, nothing else (quotes stay);
/// - attributes are matched case-insensitively (ASCII), unknown ones are ignored, and one whose value is longer
///   than 1,024 bytes is ignored (RFC 6265bis §5.6); a bad `Expires` or `Max-Age` is ignored alone (§5.2.1,
///   §5.2.2); for an attribute given twice, the last one counts (§5.3).
///
/// Any input returns in linear time.
public struct SetCookie: Sendable, Hashable {
    /// The cookie's name.
    public var name: String
    /// The cookie's value, as sent (quotes included).
    public var value: String
    /// `Expires`: the last one that was a valid cookie date (§5.2.1).
    public var expires: Date?
    /// `Max-Age` in seconds: the last one that was `-`? followed by digits (§5.2.2), clamped to ±10 years (a
    /// representable date, as §5.2.1 allows). It wins over ``expires`` (§5.3 step 3).
    public var maxAge: Int?
    /// `Domain` (§5.2.3): the last non-empty one, lower-cased, without one leading dot; `nil` when absent, or
    /// when the last one was a lone `.` (the cookie is then host-only, as without the attribute).
    public var domain: String?
    /// `Path` (§5.2.4): the value of the last one, as sent, possibly empty; `nil` when absent. A value that does
    /// not start with `/` stands for the default path of the request (``Cookie/init(_:from:at:)`` applies it).
    public var path: String?
    /// `Secure` (§5.2.5): sent over https only.
    public var isSecure: Bool
    /// `HttpOnly` (§5.2.6): kept from scripts. An HTTP client is an HTTP API, so it stores and sends such a cookie
    /// like any other.
    public var isHTTPOnly: Bool
    /// `SameSite` (RFC 6265bis §5.6.7): the last one, ``CookieSameSite/default`` when absent or unknown.
    public var sameSite: CookieSameSite

    /// The most bytes of name and value together; longer cookies are ignored (RFC 6265bis §5.6 step 5; RFC 6265
    /// §6.1 asks user agents to accept at least 4,096).
    public static let maximumSize = 4_096

    /// The most bytes of an attribute value; an attribute with a longer value is ignored (RFC 6265bis §5.6).
    public static let maximumAttributeValueSize = 1_024

    private static let maxAgeLimit = 315_360_000  // ten years, in seconds: keeps date arithmetic in range

    /// Creates a parsed cookie from its parts.
    ///
    /// - Parameters:
    ///   - name: The name.
    ///   - value: The value.
    ///   - expires: `Expires`.
    ///   - maxAge: `Max-Age` in seconds.
    ///   - domain: `Domain`, lower-cased, without a leading dot.
    ///   - path: `Path`, as sent.
    ///   - isSecure: `Secure`.
    ///   - isHTTPOnly: `HttpOnly`.
    ///   - sameSite: `SameSite`; ``CookieSameSite/default`` by default.
    public init(
        name: String, value: String, expires: Date? = nil, maxAge: Int? = nil, domain: String? = nil,
        path: String? = nil, isSecure: Bool = false, isHTTPOnly: Bool = false, sameSite: CookieSameSite = .default
    ) {
        self.name = name
        self.value = value
        self.expires = expires
        self.maxAge = maxAge
        self.domain = domain
        self.path = path
        self.isSecure = isSecure
        self.isHTTPOnly = isHTTPOnly
        self.sameSite = sameSite
    }

    /// Parses one `Set-Cookie` field value; `nil` when it must be ignored.
    ///
    /// - Parameter field: The value of one `Set-Cookie` field.
    /// - Returns: The cookie, or `nil`.
    public static func parse(_ field: String) -> SetCookie? {
        var field = field
        return field.withUTF8 { parse(bytes: $0) }
    }

    private typealias Bytes = Slice<UnsafeBufferPointer<UInt8>>

    private static func parse(bytes: UnsafeBufferPointer<UInt8>) -> SetCookie? {
        guard !bytes.contains(where: isControl) else { return nil }
        let all = bytes[...]
        let pairEnd = all.firstIndex(of: semicolon) ?? all.endIndex
        let pair = all[..<pairEnd]
        guard let equals = pair.firstIndex(of: equalsSign) else { return nil }
        let name = trim(pair[..<equals])
        let value = trim(pair[(equals + 1)...])
        guard !name.isEmpty, name.count + value.count <= maximumSize else { return nil }
        var cookie = SetCookie(name: string(name), value: string(value))
        var start = pairEnd
        while start < all.endIndex {
            let attribute = all[(start + 1)...]
            let end = attribute.firstIndex(of: semicolon) ?? attribute.endIndex
            cookie.apply(attribute[..<end])
            start = end
        }
        return cookie
    }

    /// §5.2 steps 3-5 of the attribute loop, then §5.2.1-§5.2.6 and RFC 6265bis §5.6.7.
    private mutating func apply(_ attribute: Bytes) {
        let name: Bytes
        let rawValue: Bytes
        if let equals = attribute.firstIndex(of: Self.equalsSign) {
            name = Self.trim(attribute[..<equals])
            rawValue = attribute[(equals + 1)...]
        } else {
            name = Self.trim(attribute)
            rawValue = attribute[attribute.endIndex...]
        }
        let value = Self.trim(rawValue)
        guard value.count <= Self.maximumAttributeValueSize else { return }
        if Self.equalsIgnoringCase(name, "expires") {
            if let date = CookieDate.parse(Self.string(value)) { expires = date }
        } else if Self.equalsIgnoringCase(name, "max-age") {
            if let seconds = Self.parseMaxAge(value) { maxAge = seconds }
        } else if Self.equalsIgnoringCase(name, "domain") {
            guard !value.isEmpty else { return }  // §5.2.3: an empty Domain SHOULD be ignored
            let bare = value.first == UInt8(ascii: ".") ? value.dropFirst() : value
            domain = bare.isEmpty ? nil : HTTPToken.lowercasedASCII(Self.string(bare))
        } else if Self.equalsIgnoringCase(name, "path") {
            path = Self.string(value)
        } else if Self.equalsIgnoringCase(name, "secure") {
            isSecure = true
        } else if Self.equalsIgnoringCase(name, "httponly") {
            isHTTPOnly = true
        } else if Self.equalsIgnoringCase(name, "samesite") {
            sameSite = CookieSameSite(attributeValue: Self.string(value))
        }
    }

    /// §5.2.2: a digit or `-` followed by a digit, then digits only; clamped. `nil` for anything else.
    private static func parseMaxAge(_ text: Bytes) -> Int? {
        var digits = text
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy(isDigit) else { return nil }
        var value = 0
        for byte in digits {
            value = min(value * 10 + Int(byte - 0x30), maxAgeLimit)
        }
        return negative ? -value : value
    }

    private static let semicolon = UInt8(ascii: ";")
    private static let equalsSign = UInt8(ascii: "=")

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// A CTL other than horizontal tab: `%x00-08 / %x0A-1F / %x7F`.
    private static func isControl(_ byte: UInt8) -> Bool { (byte < 0x20 && byte != 0x09) || byte == 0x7F }

    /// Without leading and trailing WSP (space and horizontal tab), as §5.2 step 4 says.
    private static func trim(_ bytes: Bytes) -> Bytes {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }) else { return bytes[bytes.endIndex...] }
        let last = bytes.lastIndex(where: { !isSpace($0) }) ?? first
        return bytes[first...last]
    }

    /// Whether `bytes` case-insensitively match `lowercase` (RFC 4790 i;ascii-casemap, as RFC 6265 §1 asks).
    private static func equalsIgnoringCase(_ bytes: Bytes, _ lowercase: String) -> Bool {
        bytes.elementsEqual(lowercase.utf8) { ($0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0) == $1 }
    }

    /// The text of bytes cut at ASCII delimiters of a valid string: valid UTF-8 themselves.
    private static func string(_ bytes: Bytes) -> String { String(decoding: bytes, as: UTF8.self) }
}
