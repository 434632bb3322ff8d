import Foundation

/// One `Set-Cookie` header parsed as RFC 6265 §5.2 says, before the jar decides whether to store it.
///
/// ```swift
/// let cookie = SetCookie.parse("sid=31d4; Path=/; Secure; HttpOnly; Max-Age=3600")
/// cookie?.name      // "sid"
/// cookie?.maxAge    // 3600
/// SetCookie.parse("no-equals-sign")   // nil: ignored
/// ```
/// A line without `=` before its first `;`, with an empty name, with a control character in its name or value, or
/// longer than 4,096 bytes (name and value) is ignored. Unknown attributes and attributes with bad values are
/// ignored one by one (an `Expires` that is not a cookie date, a `Max-Age` that is not an integer, an empty
/// `Domain`); for an attribute given twice, the last one counts. Any input returns in linear time.
public struct SetCookie: Sendable, Hashable {
    /// The cookie's name.
    public var name: String
    /// The cookie's value, as sent (quotes included).
    public var value: String
    /// `Expires`, when it was a valid cookie date.
    public var expires: Date?
    /// `Max-Age` in seconds, when it was an integer (clamped to ±10 years); it wins over ``expires``.
    public var maxAge: Int?
    /// `Domain`, lower-cased, without a leading dot; `nil` when absent or empty.
    public var domain: String?
    /// `Path`, when it starts with `/`; `nil` otherwise (the default path is used).
    public var path: String?
    /// `Secure`: sent over https only.
    public var isSecure: Bool
    /// `HttpOnly`: kept from scripts (no difference for an HTTP client, which sends it like any other).
    public var isHTTPOnly: Bool

    /// The most bytes of name and value together; longer cookies are ignored (RFC 6265 §6.1 asks user agents to
    /// accept at least 4,096).
    public static let maximumSize = 4_096

    private static let maxAgeLimit = 315_360_000  // ten years, in seconds: keeps date arithmetic in range

    /// Creates a parsed cookie from its parts.
    ///
    /// - Parameters:
    ///   - name: The name.
    ///   - value: The value.
    ///   - expires: `Expires`.
    ///   - maxAge: `Max-Age` in seconds.
    ///   - domain: `Domain`, lower-cased, without a leading dot.
    ///   - path: `Path`.
    ///   - isSecure: `Secure`.
    ///   - isHTTPOnly: `HttpOnly`.
    public init(
        name: String, value: String, expires: Date? = nil, maxAge: Int? = nil, domain: String? = nil,
        path: String? = nil, isSecure: Bool = false, isHTTPOnly: Bool = false
    ) {
        self.name = name
        self.value = value
        self.expires = expires
        self.maxAge = maxAge
        self.domain = domain
        self.path = path
        self.isSecure = isSecure
        self.isHTTPOnly = isHTTPOnly
    }

    /// Parses one `Set-Cookie` value; `nil` when it must be ignored.
    ///
    /// - Parameter line: The header's value.
    /// - Returns: The cookie, or `nil`.
    public static func parse(_ line: String) -> SetCookie? {
        let parts = line.split(separator: ";", omittingEmptySubsequences: false)
        guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { return nil }
        let name = trim(pair[..<equals])
        let value = trim(pair[pair.index(after: equals)...])
        guard !name.isEmpty, name.utf8.count + value.utf8.count <= maximumSize,
            !hasControlCharacter(name), !hasControlCharacter(value)
        else { return nil }
        var cookie = SetCookie(name: name, value: value)
        for attribute in parts.dropFirst() {
            let (key, attributeValue): (String, String)
            if let mark = attribute.firstIndex(of: "=") {
                key = trim(attribute[..<mark]).lowercased()
                attributeValue = trim(attribute[attribute.index(after: mark)...])
            } else {
                key = trim(attribute).lowercased()
                attributeValue = ""
            }
            cookie.apply(key, attributeValue)
        }
        return cookie
    }

    private mutating func apply(_ key: String, _ value: String) {
        switch key {
        case "expires":
            if let date = CookieDate.parse(value) { expires = date }
        case "max-age":
            if let seconds = Self.parseMaxAge(value) { maxAge = seconds }
        case "domain":
            guard !value.isEmpty else { return }
            let bare = value.hasPrefix(".") ? String(value.dropFirst()) : value
            domain = bare.isEmpty || Self.hasControlCharacter(bare) ? nil : HTTPToken.lowercasedASCII(bare)
        case "path":
            path = value.hasPrefix("/") && !Self.hasControlCharacter(value) ? value : nil
        case "secure": isSecure = true
        case "httponly": isHTTPOnly = true
        default: break
        }
    }

    /// `-?DIGIT+`, clamped; `nil` for anything else.
    private static func parseMaxAge(_ text: String) -> Int? {
        var bytes = Substring(text).utf8[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        guard !bytes.isEmpty, bytes.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        var value = 0
        for byte in bytes {
            value = min(value * 10 + Int(byte - 0x30), maxAgeLimit)
        }
        return negative ? -value : value
    }

    private static func trim(_ text: Substring) -> String {
        String(text.trimmingCharacters(in: CharacterSet(charactersIn: " \t")))
    }

    private static func hasControlCharacter(_ text: String) -> Bool {
        text.utf8.contains { $0 < 0x20 && $0 != 0x09 || $0 == 0x7F }
    }

    /// Splits a `Set-Cookie` value that a transport joined with `,` (as Foundation does with repeated fields) into
    /// the original lines: a piece starts a new cookie only when it has `=` before its first `;`, so the comma in
    /// `Expires=Wed, 09 Jun 2021 ...` stays inside its cookie.
    ///
    /// - Parameter combined: One or more `Set-Cookie` values joined with commas.
    /// - Returns: The separate values.
    public static func split(_ combined: String) -> [String] {
        var lines: [String] = []
        for piece in combined.split(separator: ",", omittingEmptySubsequences: false) {
            let head = piece.prefix { $0 != ";" }
            if head.contains("=") || lines.isEmpty {
                lines.append(String(piece))
            } else {
                lines[lines.count - 1] += "," + piece
            }
        }
        return lines.map { trim(Substring($0)) }.filter { !$0.isEmpty }
    }
}
