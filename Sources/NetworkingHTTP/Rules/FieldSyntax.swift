/// The delimiters of HTTP field values (RFC 9110 §5.6), read as octets: what every parser of bytes from the network
/// splits, trims and compares with.
///
/// Why not `String` and `Character`: Swift compares characters by canonical equivalence, so `"\u{37E}" == ";"`
/// (GREEK QUESTION MARK), `"\u{212A}" == "K"` (KELVIN SIGN) and ``"\u{1FEF}" == "`"``, `"\u{212A}".lowercased()` is
/// `"k"`, and a delimiter followed by a combining mark is one character with it (`"a;\u{301}b"` has no `;`
/// character); Foundation's `.whitespaces` holds Unicode spaces besides OWS. A peer cuts where the bytes `0x3B`,
/// `0x2C`, `0x3D` are and nowhere else, and compares tokens by ASCII case only: so does everything here. Each
/// function reads the text's UTF-8 and cuts only at ASCII bytes, which are always boundaries of Unicode scalars, so
/// the pieces are `Substring`s of the original text, without copies.
///
/// So `split("a\u{37E}b;c", separator: UInt8(ascii: ";"))` gives `a\u{37E}b` and `c`; `listMembers` of
/// `a, "b,c" ,, d` gives `a`, `"b,c"` and `d`; `token("Max-Age")` is `max-age`, and `token("\u{212A}eep-alive")` is
/// `nil` (not a token, so never `keep-alive`).
package enum FieldSyntax {
    /// Whether `byte` is optional whitespace (RFC 9110 §5.6.3): a space or a horizontal tab.
    @inline(__always)
    package static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// `text` without leading and trailing spaces and tabs, and nothing else (no Unicode space is OWS).
    package static func trimmed<Text: StringProtocol>(_ text: Text) -> Substring where Text.SubSequence == Substring {
        let all = text[...]
        let bytes = all.utf8
        guard let first = bytes.firstIndex(where: { !isWhitespace($0) }) else { return all[all.endIndex...] }
        let last = bytes.lastIndex(where: { !isWhitespace($0) }) ?? first
        // A half-open range of UTF-8 indices: a closed one would step past `last` by a Character, which a combining
        // mark after a space starts.
        return all[first..<bytes.index(after: last)]
    }

    /// `text` cut at every `separator` byte; with `quoted`, not inside a quoted string (RFC 9110 §5.6.4), whose
    /// backslash escapes are skipped. Pieces are neither trimmed nor dropped unless asked.
    ///
    /// - Parameters:
    ///   - text: The text to cut.
    ///   - separator: An ASCII delimiter, such as `UInt8(ascii: ";")`.
    ///   - maxSplits: The most cuts; the rest of the text is the last piece.
    ///   - quoted: Whether a `"` opens a quoted string in which the separator does not cut.
    ///   - trimming: Whether each piece loses its optional whitespace.
    ///   - omittingEmpty: Whether empty pieces (after trimming) are dropped.
    /// - Returns: The pieces, in order.
    package static func split<Text: StringProtocol>(
        _ text: Text, separator: UInt8, maxSplits: Int = .max, quoted: Bool = false, trimming: Bool = false,
        omittingEmpty: Bool = false
    ) -> [Substring] where Text.SubSequence == Substring {
        let all = text[...]
        let bytes = all.utf8
        var pieces: [Substring] = []
        @discardableResult
        func add(_ piece: Substring) -> Bool {
            let kept = trimming ? trimmed(piece) : piece
            guard !(omittingEmpty && kept.isEmpty) else { return false }
            pieces.append(kept)
            return true
        }
        var start = bytes.startIndex
        var index = bytes.startIndex
        var inQuotes = false
        var escaped = false
        var cuts = 0
        while index < bytes.endIndex {
            let byte = bytes[index]
            if escaped {
                escaped = false
            } else if quoted && inQuotes && byte == UInt8(ascii: "\\") {
                escaped = true
            } else if quoted && byte == UInt8(ascii: "\"") {
                inQuotes.toggle()
            } else if byte == separator && !inQuotes && cuts < maxSplits {
                // As the standard library's split: an omitted empty piece does not count as a cut.
                if add(all[start..<index]) { cuts += 1 }
                start = bytes.index(after: index)
            }
            index = bytes.index(after: index)
        }
        add(all[start...])
        return pieces
    }

    /// The members of a comma-separated list (RFC 9110 §5.6.1) across every field of one name: cut at commas
    /// (outside quoted strings, for a list whose members may hold them), trimmed, empty members dropped.
    ///
    /// - Parameters:
    ///   - values: The values of every field of the name, in order.
    ///   - quoted: Whether members may hold quoted strings (`Cache-Control`, `If-None-Match`); a list of tokens
    ///     (`Vary`, `Connection`, `Content-Encoding`) has none, and is cut at every comma, as a peer cuts it.
    /// - Returns: The members, in order.
    package static func listMembers(_ values: [String], quoted: Bool = true) -> [Substring] {
        values.flatMap {
            split($0, separator: UInt8(ascii: ","), quoted: quoted, trimming: true, omittingEmpty: true)
        }
    }

    /// `text` up to its first `separator` byte, and what follows it (`nil` without one): `name=value`,
    /// `type/subtype`.
    package static func cut<Text: StringProtocol>(_ text: Text, at separator: UInt8) -> (Substring, Substring?)
    where Text.SubSequence == Substring {
        let all = text[...]
        guard let index = all.utf8.firstIndex(of: separator) else { return (all, nil) }
        return (all[..<index], all[all.utf8.index(after: index)...])
    }

    /// Whether `text` holds the byte `byte`.
    package static func contains<Text: StringProtocol>(_ text: Text, _ byte: UInt8) -> Bool {
        text.utf8.contains(byte)
    }

    /// Whether `text` and `other` are the same octets (what `==` on strings is not: it compares by canonical
    /// equivalence).
    package static func equals<Text: StringProtocol, Other: StringProtocol>(_ text: Text, _ other: Other) -> Bool {
        text.utf8.elementsEqual(other.utf8)
    }

    /// Whether `text` equals `lowercase` ignoring ASCII letter case only (RFC 9110 §5.6.2 tokens; RFC 4790
    /// i;ascii-casemap): `MAX-AGE` matches `max-age`, `\u{212A}` never matches `k`.
    ///
    /// - Parameters:
    ///   - text: The text read from the network.
    ///   - lowercase: The expected text, ASCII lower case.
    package static func equalsIgnoringCase<Text: StringProtocol>(_ text: Text, _ lowercase: String) -> Bool {
        text.utf8.elementsEqual(lowercase.utf8) { lowercased($0) == $1 }
    }

    /// Whether `text` starts with `lowercase`, ignoring ASCII letter case only.
    package static func hasPrefixIgnoringCase<Text: StringProtocol>(_ text: Text, _ lowercase: String) -> Bool {
        let head = text.utf8.prefix(lowercase.utf8.count)
        return head.count == lowercase.utf8.count && head.elementsEqual(lowercase.utf8) { lowercased($0) == $1 }
    }

    /// `text` with ASCII letters upper-cased and nothing else (`String.uppercased()` would make `ſ` an `S`): a
    /// method name as a manifest or recording writes it.
    package static func uppercasedASCII(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 0x61 && $0 <= 0x7A ? $0 & 0xDF : $0 }, as: UTF8.self)
    }

    /// `text` as a token (RFC 9110 §5.6.2) in ASCII lower case, or `nil` when it is empty or holds a byte that is
    /// not a `tchar`. A token is ASCII, so comparing the result with `==` or a `switch` compares octets.
    package static func token<Text: StringProtocol>(_ text: Text) -> String? {
        let bytes = text.utf8
        guard !bytes.isEmpty, bytes.allSatisfy(HTTPToken.isTokenByte) else { return nil }
        return String(decoding: bytes.map(lowercased), as: UTF8.self)
    }

    /// The content of a quoted string (RFC 9110 §5.6.4) with its backslash escapes resolved; `text` itself when it
    /// is not quoted.
    package static func unquoted(_ text: Substring) -> Substring {
        let bytes = text.utf8
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\"") else {
            return text
        }
        let inner = text[bytes.index(after: bytes.startIndex)..<bytes.index(before: bytes.endIndex)]
        guard inner.utf8.contains(UInt8(ascii: "\\")) else { return inner }
        var result: [UInt8] = []
        var escaped = false
        for byte in inner.utf8 {
            if !escaped && byte == UInt8(ascii: "\\") {
                escaped = true
            } else {
                result.append(byte)
                escaped = false
            }
        }
        return Substring(String(decoding: result, as: UTF8.self))
    }

    /// The parameters after the first `;` of a value such as a media type or a `Cache-Status` member (RFC 9110
    /// §5.6.6): each name a lower-cased token, each value unquoted (`nil` for a bare name); a parameter whose name
    /// is not a token is left out.
    ///
    /// - Parameter text: The whole value, `type/subtype; name=value; ...`.
    /// - Returns: The value before the first `;`, trimmed, and the parameters in order.
    package static func parameters<Text: StringProtocol>(_ text: Text) -> (
        value: Substring, parameters: [(name: String, value: Substring?)]
    ) where Text.SubSequence == Substring {
        let pieces = split(text, separator: UInt8(ascii: ";"), quoted: true, trimming: true)
        var parameters: [(name: String, value: Substring?)] = []
        for piece in pieces.dropFirst() {
            let (name, value) = cut(piece, at: UInt8(ascii: "="))
            guard let token = token(trimmed(name)) else { continue }
            parameters.append((token, value.map { unquoted(trimmed($0)) }))
        }
        return (pieces.first ?? text[...], parameters)
    }

    /// Whether a `Content-Type` value names the media type `lowercase` (`type/subtype`, ASCII lower case), in any
    /// ASCII case, whatever its parameters (RFC 9110 §8.3.1).
    package static func isMediaType(_ contentType: String?, _ lowercase: String) -> Bool {
        guard let contentType else { return false }
        return equalsIgnoringCase(parameters(contentType).value, lowercase)
    }

    /// Whether `text` holds `lowercase` somewhere, ignoring ASCII letter case only (`+json` in a media type).
    package static func containsIgnoringCase<Text: StringProtocol>(_ text: Text, _ lowercase: String) -> Bool {
        let bytes = Array(text.utf8)
        let pattern = Array(lowercase.utf8)
        guard bytes.count >= pattern.count else { return false }
        return (0...(bytes.count - pattern.count)).contains { start in
            bytes[start..<start + pattern.count].elementsEqual(pattern) { lowercased($0) == $1 }
        }
    }

    /// `bytes` cut at every `separator` byte (for grammars of ASCII only, such as dates).
    package static func split(_ bytes: ArraySlice<UInt8>, at separator: UInt8, omittingEmpty: Bool)
        -> [ArraySlice<UInt8>]
    {
        bytes.split(separator: separator, omittingEmptySubsequences: omittingEmpty)
    }

    /// Whether `bytes` equal `lowercase` ignoring ASCII letter case only.
    package static func equalsIgnoringCase(_ bytes: ArraySlice<UInt8>, _ lowercase: [UInt8]) -> Bool {
        bytes.elementsEqual(lowercase) { lowercased($0) == $1 }
    }

    @inline(__always)
    private static func lowercased(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
}
