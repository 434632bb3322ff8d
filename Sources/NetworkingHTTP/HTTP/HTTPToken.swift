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
        let hasCapital = text.withUTF8 { bytes in bytes.contains { $0 >= 0x41 && $0 <= 0x5A } }
        guard hasCapital else { return text }
        return String(
            decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
