/// Text from the network or from callers, made safe to show in one line of a log, an error or a terminal.
package enum DisplayText {
    /// `text` with every control character written as an escape (`\n`, `\r`, `\t`, `\u{1b}`), so that a value can
    /// never start a new line or drive a terminal. Covers C0 and C1 controls, DEL, and the Unicode line and
    /// paragraph separators.
    package static func escapingControlCharacters(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": escaped.append(contentsOf: "\\n".unicodeScalars)
            case "\r": escaped.append(contentsOf: "\\r".unicodeScalars)
            case "\t": escaped.append(contentsOf: "\\t".unicodeScalars)
            case _ where isControl(scalar):
                escaped.append(contentsOf: "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}
