/// One header field: a name, a value, and whether the value is a secret.
///
/// A field is a plain value; it is checked when it is written into ``HTTPFields``, which records a bad name or
/// value so that the call fails with `invalidRequest` before any I/O (see ``HTTPFields``).
///
/// A **sensitive** field carries a credential or a session: its value never appears in a log line, an error
/// text or a cURL command, and it is removed when a redirect leaves the request's origin. `Authorization`,
/// `Proxy-Authorization`, `Cookie` and `Set-Cookie` are sensitive by default; the credential behaviors mark the
/// headers they set, and ``HTTPFields/subscript(sensitive:)`` marks any other.
public struct HTTPField: Sendable, Hashable, CustomStringConvertible {
    /// The field name, as written.
    public var name: Name
    /// The field value.
    public var value: String
    /// Whether the value is a secret: never shown, never sent to another origin by a redirect.
    public var isSensitive: Bool

    /// Creates a field.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The field value.
    ///   - isSensitive: Whether the value is a secret; `nil` (the default) decides by name
    ///     (``Name/isSensitiveByDefault``).
    public init(name: Name, value: String, isSensitive: Bool? = nil) {
        self.name = name
        self.value = value
        self.isSensitive = isSensitive ?? name.isSensitiveByDefault
    }

    /// `Name: value`, with `<redacted>` for the value of a sensitive field.
    public var description: String {
        "\(name.rawName): \(isSensitive ? "<redacted>" : value)"
    }

    /// A field name: written as given, compared without regard to ASCII letter case.
    ///
    /// Any string can be written; a name that is not an RFC 9110 token (empty, or with a space, colon or control
    /// character) is refused when it is written into ``HTTPFields``, which records why.
    public struct Name: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible, Comparable {
        /// The name as written, as it goes on the wire: `X-API-Key` stays `X-API-Key`.
        public let rawName: String
        /// The name in lower case, for comparisons.
        public let canonicalName: String
        /// Whether the name is an RFC 9110 token.
        public let isValid: Bool

        /// Creates a name.
        ///
        /// - Parameter name: The name as it should be sent.
        public init(_ name: String) {
            rawName = name
            // One pass over the bytes for both answers: this runs for every field of every response.
            var text = name
            let (lowered, valid) = text.withUTF8(Self.read)
            canonicalName = lowered ?? name
            isValid = valid
        }

        /// Creates a name from its bytes as they came from the network (a response's field line).
        package init(utf8 bytes: UnsafeRawBufferPointer) {
            let (lowered, valid) = bytes.withMemoryRebound(to: UInt8.self, Self.read)
            rawName = String(decoding: bytes, as: UTF8.self)
            canonicalName = lowered ?? rawName
            isValid = valid
        }

        /// The lower-cased name (`nil` when it is written in lower case already) and whether it is a token.
        @inline(__always)
        private static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> (String?, Bool) {
            (HTTPToken.lowercasedASCII(bytes: bytes), !bytes.isEmpty && bytes.allSatisfy(HTTPToken.isTokenByte))
        }

        /// Creates a name from a string literal: `"X-API-Key"`.
        ///
        /// - Parameter value: The name as it should be sent.
        public init(stringLiteral value: String) {
            self.init(value)
        }

        /// The name as written.
        public var description: String { rawName }

        /// Whether fields of this name are sensitive unless said otherwise: `Authorization`,
        /// `Proxy-Authorization`, `Cookie`, `Set-Cookie`.
        public var isSensitiveByDefault: Bool {
            // By length first: every field made asks, and most names have none of these lengths.
            switch canonicalName.utf8.count {
            case 6: canonicalName.utf8.elementsEqual("cookie".utf8)
            case 10: canonicalName.utf8.elementsEqual("set-cookie".utf8)
            case 13: canonicalName.utf8.elementsEqual("authorization".utf8)
            case 19: canonicalName.utf8.elementsEqual("proxy-authorization".utf8)
            default: false
            }
        }

        /// Names are equal when they are equal ignoring ASCII letter case: the same octets once lower-cased, never
        /// by Unicode equivalence (`a\u{1FEF}` is not `` a` ``).
        public static func == (lhs: Name, rhs: Name) -> Bool {
            // Lengths first: a lookup compares a name with every field's, and most differ in length. Two tokens are
            // ASCII, where String's == is octet equality, and it is the fast path.
            guard lhs.canonicalName.utf8.count == rhs.canonicalName.utf8.count else { return false }
            return lhs.isValid && rhs.isValid
                ? lhs.canonicalName == rhs.canonicalName
                : lhs.canonicalName.utf8.elementsEqual(rhs.canonicalName.utf8)
        }

        /// Hashes the lower-cased name.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(canonicalName)
        }

        /// Orders by the octets of the lower-cased name.
        public static func < (lhs: Name, rhs: Name) -> Bool {
            lhs.canonicalName.utf8.lexicographicallyPrecedes(rhs.canonicalName.utf8)
        }
    }
}
