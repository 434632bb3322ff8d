import Foundation

/// The body of a ``NetworkRequest``.
///
/// Bodies are held in memory, so every body can be replayed by a retry. The client sets `Content-Type` from the
/// body unless the request names one itself.
public enum RequestBody: Sendable {
    /// Raw bytes, sent as they are, with an optional `Content-Type`.
    case data(Data, contentType: String? = nil)
    /// A value encoded as JSON with the client's `JSONEncoder`; `Content-Type: application/json`.
    case json(any Encodable & Sendable)
    /// Form fields, percent-encoded as `application/x-www-form-urlencoded` (space as `+`).
    case form([URLQueryItem])

    /// The `Content-Type` this body implies, if any.
    var defaultContentType: String? {
        switch self {
        case .data(_, let contentType): contentType
        case .json: "application/json"
        case .form: "application/x-www-form-urlencoded; charset=utf-8"
        }
    }

    /// The bytes to send.
    func encoded(with encoder: JSONEncoder) throws -> Data {
        switch self {
        case .data(let data, _):
            return data
        case .json(let value):
            return try encoder.encode(value)
        case .form(let fields):
            let pairs = fields.map { field in
                FormEncoding.escape(field.name) + "=" + FormEncoding.escape(field.value ?? "")
            }
            return Data(pairs.joined(separator: "&").utf8)
        }
    }
}

/// Percent-encoding for form bodies and query items, where `+`, `&` and `=` must not pass through unescaped.
enum FormEncoding {
    private static let unreserved: Set<UInt8> = Set(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._*".utf8)

    /// `value` with every byte outside `[A-Za-z0-9-._*]` escaped, and space written as `+`.
    static func escape(_ value: String) -> String {
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
    static func percentEscape(_ byte: UInt8) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        return String(decoding: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]], as: UTF8.self)
    }
}
