import Foundation
import NetworkingHTTP

/// The body of a ``NetworkRequest``.
///
/// Every body but a one-time producer can be replayed by a retry or a 307/308 redirect: bytes are sent again, a
/// file is read again from the start, a restartable producer produces again. The client sets `Content-Type` from
/// the body unless the request names one itself. A multipart form is a body too: `.multipart(form)`, from the
/// transfers module.
public enum RequestBody: Sendable {
    /// Raw bytes, sent as they are, with an optional `Content-Type`.
    case data(Data, contentType: String? = nil)
    /// A value encoded as JSON with the client's `JSONEncoder`; `Content-Type: application/json`.
    case json(any Encodable & Sendable)
    /// Form fields, percent-encoded as `application/x-www-form-urlencoded` (space as `+`).
    case form([URLQueryItem])
    /// The contents of a local file, streamed from disk (memory stays flat however large the file), with an exact
    /// `Content-Length`; `Content-Type` is `contentType`, or `application/octet-stream` when `nil`. A missing or
    /// unreadable file fails before any I/O with `NetworkError` of kind `invalidRequest` naming the path.
    case file(URL, contentType: String? = nil)
    /// Any `HTTPBody`: a producer of chunks (restartable or one-time), or one a module makes, such as a multipart
    /// form; `Content-Type` is `contentType`, or `application/octet-stream` when `nil`. Retried only when the body
    /// is replayable.
    case stream(HTTPBody, contentType: String? = nil)

    /// The `Content-Type` this body implies, if any.
    package var defaultContentType: String? {
        switch self {
        case .data(_, let contentType): contentType
        case .json: "application/json"
        case .form: "application/x-www-form-urlencoded; charset=utf-8"
        case .file(_, let contentType), .stream(_, let contentType): contentType ?? "application/octet-stream"
        }
    }

    /// The body as the transport sends it.
    package func httpBody(with encoder: JSONEncoder) throws -> HTTPBody {
        switch self {
        case .data(let data, _):
            return .data(data)
        case .json(let value):
            return .data(try encoder.encode(value))
        case .form(let fields):
            let pairs = fields.map { field in
                FormEncoding.escape(field.name) + "=" + FormEncoding.escape(field.value ?? "")
            }
            return .data(Data(pairs.joined(separator: "&").utf8))
        case .file(let url, _):
            return .file(url)
        case .stream(let body, _):
            return body
        }
    }

    /// The number of bytes, when known before sending.
    package var length: Int64? {
        switch self {
        case .data(let data, _): Int64(data.count)
        case .file(let url, _): BodyFile.size(url)
        case .stream(let body, _): body.length
        case .json, .form: nil
        }
    }
}
