/// The byte rules of RFC 9110 that every write to an ``HTTPRequest`` is checked against.
package enum HTTPToken {
    /// Whether `byte` is a `tchar`: a visible ASCII character other than the delimiters `"(),/:;<=>?@[\]{}`.
    @inline(__always)
    package static func isTokenByte(_ byte: UInt8) -> Bool {
        ASCIISet.token.contains(byte)
    }

    /// Whether `text` is a non-empty `token`, as method names and field names must be.
    package static func isToken(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in !bytes.isEmpty && bytes.allSatisfy(isTokenByte) }
    }

    /// Whether `value` may be sent as a field value: no control character other than horizontal tab (CR, LF and
    /// NUL would split the message). Other bytes, UTF-8 included, are allowed.
    package static func isValidFieldValue(_ value: String) -> Bool {
        var value = value
        return value.withUTF8 { bytes in
            !bytes.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }
        }
    }

    /// `text` with ASCII letters lower-cased; the same string, without a copy, when it has no capital letter.
    package static func lowercasedASCII(_ text: String) -> String {
        var text = text
        return text.withUTF8 { lowercasedASCII(bytes: $0) } ?? text
    }

    /// `bytes` with ASCII letters lower-cased, as a string; `nil` when they have no capital letter (the caller
    /// keeps the string it has). Written straight into the new string, with no intermediate array: a name of up
    /// to 15 bytes (most field names) then allocates nothing.
    package static func lowercasedASCII(bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.contains(where: isCapitalLetter) else { return nil }
        return String(unsafeUninitializedCapacity: bytes.count) { buffer in
            for index in bytes.indices {
                let byte = bytes[index]
                buffer[index] = isCapitalLetter(byte) ? byte | 0x20 : byte
            }
            return bytes.count
        }
    }

    /// Whether `byte` is an ASCII capital letter, `A` to `Z`.
    @inline(__always)
    package static func isCapitalLetter(_ byte: UInt8) -> Bool {
        byte &- 0x41 < 26
    }
}

/// A set of ASCII bytes as two 64-bit masks, for the checks every request goes through (tokens, authorities,
/// paths; kept beside ``HTTPToken``, the rules it serves): a membership test is a shift and a mask, where a `static let` table would cost a lazy-initialization
/// check and a bounds check on every byte. Each set is written as its masks, and a test checks them against the
/// characters they stand for (``init(_:)``).
package struct ASCIISet: Sendable, Equatable {
    /// Bytes 0-63, one bit each.
    package let low: UInt64
    /// Bytes 64-127, one bit each.
    package let high: UInt64

    /// A set from its masks.
    package init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    /// The set of the ASCII characters of `characters` (the definition the masks of a literal set are checked
    /// against).
    package init(_ characters: String) {
        var (low, high): (UInt64, UInt64) = (0, 0)
        for byte in characters.utf8 where byte < 128 {
            if byte < 64 { low |= 1 << byte } else { high |= 1 << (byte - 64) }
        }
        self.init(low: low, high: high)
    }

    /// Whether `byte` is in the set; never for a byte above 127.
    @inline(__always)
    package func contains(_ byte: UInt8) -> Bool {
        if byte < 64 { return (low >> byte) & 1 == 1 }
        if byte < 128 { return (high >> (byte &- 64)) & 1 == 1 }
        return false
    }

    /// RFC 9110 `tchar`: the bytes of a token (method, field name).
    package static let token = ASCIISet(low: 0x03ff_6cfa_0000_0000, high: 0x57ff_ffff_c7ff_fffe)
    /// The definition of ``token``.
    package static let tokenCharacters = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

    /// Bytes an authority may carry: unreserved, sub-delims, `:`, `[`, `]` and `%`.
    package static let authority = ASCIISet(low: 0x2fff_7ff2_0000_0000, high: 0x47ff_fffe_afff_fffe)
    /// The definition of ``authority``.
    package static let authorityCharacters =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:[]%"

    /// Bytes a path and query may carry as they are (RFC 3986 `pchar`, `/` and `?`, `%` for escapes, and the
    /// brackets that query strings such as `a[]=1` use).
    package static let target = ASCIISet(low: 0xafff_fff2_0000_0000, high: 0x47ff_fffe_afff_ffff)
    /// The definition of ``target``.
    package static let targetCharacters =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/?%[]"

    /// Bytes a path given to the client keeps as they are; it escapes the others (`%` is kept only as the start of
    /// a valid escape).
    package static let relativePath = ASCIISet(low: 0xafff_ffd2_0000_0000, high: 0x47ff_fffe_87ff_ffff)
    /// The definition of ``relativePath``.
    package static let relativePathCharacters =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/?"
}
