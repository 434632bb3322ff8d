import NetworkingHTTP

/// Percent-encoding for form bodies and query items, where `+`, `&` and `=` must not pass through unescaped.
package enum FormEncoding {
    private static let unreserved: Set<UInt8> = Set(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._*".utf8)

    /// `value` with every byte outside `[A-Za-z0-9-._*]` escaped, and space written as `+`.
    package static func escape(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            if unreserved.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else if byte == UInt8(ascii: " ") {
                out.append("+")
            } else {
                out.append(percentEscape(byte))
            }
        }
        return out
    }

    /// `%XX` for one byte.
    package static func percentEscape(_ byte: UInt8) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        return String(decoding: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]], as: UTF8.self)
    }
}
