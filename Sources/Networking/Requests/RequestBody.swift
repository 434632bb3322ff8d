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
