import Foundation

/// The body of a ``NetworkRequest``.
///
/// Every body but a one-time stream can be replayed by a retry or a 307/308 redirect: in-memory bodies are sent
/// again, a file is read again from the start, a restartable stream is produced again. The client sets `Content-Type` from the body unless the request names one itself.
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
    /// A `multipart/form-data` form (``MultipartFormData``): file parts streamed from disk, an exact
    /// `Content-Length`, `Content-Type` with the form's boundary.
    case multipart(MultipartFormData)
    /// Bytes produced by an async sequence (``BodyStream``); `Content-Type` is `contentType`, or
    /// `application/octet-stream` when `nil`. Retried only when the stream is restartable.
    case stream(BodyStream, contentType: String? = nil)

    /// The `Content-Type` this body implies, if any.
    var defaultContentType: String? {
        switch self {
        case .data(_, let contentType): contentType
        case .json: "application/json"
        case .form: "application/x-www-form-urlencoded; charset=utf-8"
        case .file(_, let contentType): contentType ?? "application/octet-stream"
        case .multipart(let form): form.contentType
        case .stream(_, let contentType): contentType ?? "application/octet-stream"
        }
    }

    /// The body as the transport sends it.
    func httpBody(with encoder: JSONEncoder) throws -> HTTPRequest.Body {
        if case .file(let url, _) = self { return .file(url) }
        if case .multipart(let form) = self { return .multipart(form) }
        if case .stream(let stream, _) = self { return .stream(stream) }
        return .data(try encoded(with: encoder))
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
        case .file(let url, _):
            return try Data(contentsOf: url)
        case .multipart(let form):
            return try form.encodedData()
        case .stream:
            return Data()
        }
    }
}
