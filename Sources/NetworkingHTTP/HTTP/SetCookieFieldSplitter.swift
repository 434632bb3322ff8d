/// Turns the `Set-Cookie` fields of a response into one string per cookie, for `SetCookie/parse(_:)`.
///
/// RFC 6265 §5.2 parses each `Set-Cookie` field as exactly one cookie, and §3 asks servers not to fold them, because
/// a comma is an ordinary character of a cookie (`Expires=Wed, 09 Jun 2021 10:18:14 GMT`, or any value). So fields
/// that arrive apart are never split:
///
/// ```swift
/// SetCookieFieldSplitter.cookieStrings(in: ["a=x, b=evil"])                        // ["a=x, b=evil"]: one cookie
/// SetCookieFieldSplitter.cookieStrings(in: ["a=1, b=2"], fieldsAreJoined: true)   // ["a=1", "b=2"]
/// ```
///
/// Foundation's `HTTPURLResponse` can only hold repeated fields joined into one with `", "`, on every platform: the
/// URL session transport splits `Set-Cookie` back into fields with ``split(joined:)`` before a behavior sees it, and
/// admits each piece alone (a piece with a control character is dropped, its neighbours kept). ``split(joined:)`` cuts
/// the joined text only where a new cookie can start: at a comma followed by optional spaces, a name made of token
/// characters (RFC 9110 `tchar`), optional spaces and `=`. The comma of an `Expires` date is never such a comma: in
/// every HTTP-date form (`Wed, 09 Jun 2021 10:18:14 GMT`, `Wednesday, 09-Jun-21 10:18:14 GMT`, and the common
/// `Wed, 09-Jun-2021 10:18:14 GMT`) it is followed by a day, a space and no `=`. So a bad `Expires` value (`soon`,
/// `Wed`, empty) never hides the cookie after it: each cookie keeps its own bad attribute, which its parser ignores.
///
/// **Limitation**: the joined form is ambiguous, and no rule can undo it. A field whose value or attribute contains
/// `, x=y` (`a=1, x=y` sent as one field) reads as two cookies, and a field whose name is not a token (`a b=1`) is
/// glued to the field before it. Only a transport that keeps the fields apart is exact.
package enum SetCookieFieldSplitter {
    /// The cookie strings of a response's `Set-Cookie` field values.
    ///
    /// - Parameters:
    ///   - fields: The values of every `Set-Cookie` field, in order.
    ///   - fieldsAreJoined: Whether the transport joined repeated fields with commas; `false` by default: each
    ///     field is then one cookie, commas included.
    /// - Returns: One string per cookie: `fields` unchanged, or each field cut by ``split(joined:)``.
    package static func cookieStrings(in fields: [String], fieldsAreJoined: Bool = false) -> [String] {
        fieldsAreJoined ? fields.flatMap(split(joined:)) : fields
    }

    /// Cuts a value that joined several `Set-Cookie` fields with commas back into fields, as well as the joined form
    /// allows (see the limitation above). Pieces lose their surrounding spaces; empty pieces are dropped.
    ///
    /// - Parameter joined: One or more `Set-Cookie` values joined with `,` or `", "`.
    /// - Returns: The separate values.
    package static func split(joined: String) -> [String] {
        var joined = joined
        return joined.withUTF8 { bytes in
            var pieces: [String] = []
            var pieceStart = 0
            for index in bytes.indices where bytes[index] == comma && startsPair(bytes[(index + 1)...]) {
                append(bytes[pieceStart..<index], to: &pieces)
                pieceStart = index + 1
            }
            append(bytes[pieceStart...], to: &pieces)
            return pieces
        }
    }

    private typealias Bytes = Slice<UnsafeBufferPointer<UInt8>>

    private static let comma = UInt8(ascii: ",")
    private static let equalsSign = UInt8(ascii: "=")

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// Whether `rest` starts as a cookie pair does: optional spaces, a token, optional spaces, `=`.
    private static func startsPair(_ rest: Bytes) -> Bool {
        var index = rest.startIndex
        while index < rest.endIndex, isSpace(rest[index]) { index += 1 }
        let nameStart = index
        while index < rest.endIndex, HTTPToken.isTokenByte(rest[index]) { index += 1 }
        guard index > nameStart else { return false }
        while index < rest.endIndex, isSpace(rest[index]) { index += 1 }
        return index < rest.endIndex && rest[index] == equalsSign
    }

    private static func trim(_ bytes: Bytes) -> Bytes {
        guard let first = bytes.firstIndex(where: { !isSpace($0) }) else { return bytes[bytes.endIndex...] }
        return bytes[first...(bytes.lastIndex(where: { !isSpace($0) }) ?? first)]
    }

    private static func append(_ piece: Bytes, to pieces: inout [String]) {
        let text = trim(piece)
        if !text.isEmpty { pieces.append(String(decoding: text, as: UTF8.self)) }
    }
}
