import Foundation
import NetworkingHTTP
import NetworkingCore

/// One scripted answer of a ``MockTransport``: a typed value, raw bytes, a bare status, or an error.
///
/// Typed values are encoded by the mock with its `encoder` when the request arrives, so the client's real decoding
/// path runs on them:
/// ```swift
/// mock.stub(.get, "/users/1", .success(User(id: 1, name: "Ada")))
/// mock.stub(.get, "/users/2", .status(404))
/// mock.stub(.get, "/health", .failure(TransportError(.cannotConnect, "offline")))
/// mock.stub(.get, "/users/3", .serviceUnavailable(retryAfter: 1), .success(User(id: 3, name: "Lin")))
/// ```
public struct MockResponse: Sendable {
    /// What the body is made of.
    package enum Body: Sendable {
        case none
        case data(Data)
        case value(any Encodable & Sendable)
        case chunks([Data], interval: Duration?, end: StreamEnd)
    }

    /// The status code of the answer. Ignored when ``error`` is set.
    public var status: Int
    /// The response headers.
    public var headers: HTTPFields
    /// The error thrown instead of answering, if any.
    public var error: (any Error)?
    /// How long the mock waits, on its clock, before answering or throwing.
    public var delay: Duration?
    /// The body.
    package var body: Body
    /// The trailer fields sent after the body (`HTTPBody/trailerFields`); `nil` for none.
    public var trailerFields: HTTPFields?

    package init(status: Int, headers: HTTPFields, body: Body, error: (any Error)? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.error = error
        self.delay = nil
    }

    /// A typed value encoded as JSON with the mock's encoder, with `Content-Type: application/json`.
    ///
    /// - Parameters:
    ///   - value: The value to encode; the client decodes it back through its real decoding path.
    ///   - status: The status code, 200 by default.
    ///   - headers: Extra response headers.
    public static func success(
        _ value: any Encodable & Sendable, status: Int = 200, headers: HTTPFields = [:]
    ) -> MockResponse {
        MockResponse(status: status, headers: jsonHeaders(headers), body: .value(value))
    }

    /// A JSON body given as text, with `Content-Type: application/json`.
    ///
    /// - Parameters:
    ///   - text: The JSON text, sent as UTF-8 exactly as given (so malformed JSON can be tested too).
    ///   - status: The status code, 200 by default.
    ///   - headers: Extra response headers.
    public static func json(_ text: String, status: Int = 200, headers: HTTPFields = [:]) -> MockResponse {
        MockResponse(status: status, headers: jsonHeaders(headers), body: .data(Data(text.utf8)))
    }

    /// Raw bytes with the given status and headers.
    ///
    /// - Parameters:
    ///   - data: The body, sent as it is.
    ///   - status: The status code, 200 by default.
    ///   - headers: The response headers.
    public static func data(_ data: Data, status: Int = 200, headers: HTTPFields = [:]) -> MockResponse {
        MockResponse(status: status, headers: headers, body: .data(data))
    }

    /// A status with an optional text body, such as `.status(404)` or `.status(500, body: "boom")`.
    ///
    /// - Parameters:
    ///   - code: The status code.
    ///   - headers: The response headers.
    ///   - body: The body as UTF-8 text; empty by default.
    public static func status(_ code: Int, headers: HTTPFields = [:], body: String = "") -> MockResponse {
        MockResponse(status: code, headers: headers, body: body.isEmpty ? .none : .data(Data(body.utf8)))
    }

    /// Throws `error` instead of answering, as a transport does when no response came.
    ///
    /// - Parameter error: A `TransportError`, a `URLError`, `CancellationError` or any error of your own.
    public static func failure(_ error: any Error) -> MockResponse {
        MockResponse(status: 0, headers: [:], body: .none, error: error)
    }

    /// `204 No Content`.
    public static var noContent: MockResponse { .status(204) }

    /// `401 Unauthorized`, the first answer of a token-refresh script.
    public static var unauthorized: MockResponse { .status(401) }

    /// `503 Service Unavailable`, with `Retry-After: <seconds>` when given.
    ///
    /// - Parameter seconds: The value of the `Retry-After` header in seconds; `nil` for no header.
    public static func serviceUnavailable(retryAfter seconds: Int? = nil) -> MockResponse {
        .status(503, headers: seconds.map { [.retryAfter: "\($0)"] } ?? [:])
    }

    /// The same answer, given after `duration` on the mock's clock.
    ///
    /// - Parameter duration: How long to wait before answering.
    public func delayed(by duration: Duration) -> MockResponse {
        var copy = self
        copy.delay = duration
        return copy
    }

    /// The same answer with `value` set for header `name`.
    ///
    /// - Parameters:
    ///   - name: The header name.
    ///   - value: The header value.
    public func header(_ name: HTTPField.Name, _ value: String) -> MockResponse {
        var copy = self
        copy.headers[name] = value
        return copy
    }

    /// The same response with a trailer field sent after its body: `.streamed(chunks).trailer("X-Checksum", sum)`.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The field value.
    /// - Returns: The response with the field appended to its trailer fields.
    public func trailer(_ name: HTTPField.Name, _ value: String) -> MockResponse {
        var copy = self
        var fields = copy.trailerFields ?? HTTPFields()
        fields.append(HTTPField(name: name, value: value))
        copy.trailerFields = fields
        return copy
    }

    /// The response head and body for `request`, encoding a typed value with `encoder`; throws ``error`` if set.
    ///
    /// - Parameters:
    ///   - request: The request being answered; its URL becomes the response's URL.
    ///   - encoder: Encodes a typed value.
    /// - Returns: The response head and body.
    /// - Throws: ``error``, or the encoder's error.
    public func answer(to request: HTTPRequest, encoder: JSONEncoder) throws -> (HTTPResponse, Data) {
        if let error { throw error }
        let data: Data
        switch body {
        case .none: data = Data()
        case .data(let bytes): data = bytes
        case .value(let value): data = try encoder.encode(value)
        case .chunks(let chunks, _, let end):
            if case .fail(let error) = end { throw error }
            data = chunks.reduce(into: Data()) { $0.append($1) }
        }
        return (HTTPResponse(status: .init(code: status), headerFields: headers, url: request.url), data)
    }

    /// A short description for failure messages: `200 <User>`, `503`, `throws TransportError`.
    package var summary: String {
        if let error { return "throws \(type(of: error))" }
        switch body {
        case .value(let value): return "\(status) <\(type(of: value))>"
        case .data(let data) where !data.isEmpty: return "\(status) (\(data.count) bytes)"
        case .chunks(let chunks, _, _): return "\(status) (\(chunks.count) chunks)"
        default: return "\(status)"
        }
    }

    private static func jsonHeaders(_ headers: HTTPFields) -> HTTPFields {
        var merged = headers
        if !merged.contains(.contentType) { merged[.contentType] = "application/json" }
        return merged
    }
}
