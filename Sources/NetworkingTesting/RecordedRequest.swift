import Foundation
import NetworkingHTTP
import NetworkingCore

/// One attempt that reached a ``MockTransport``, as sent after every behavior ran, with helpers for assertions.
///
/// ```swift
/// let sent = try #require(mock.recordedRequests.last)
/// #expect(sent.method == .post)
/// #expect(sent.path == "/v1/users")
/// #expect(sent.query["page"] == "2")
/// #expect(sent.header("Authorization") == "Bearer abc")
/// #expect(try sent.decodedBody(as: NewUser.self) == NewUser(name: "Ada"))
/// ```
public struct RecordedRequest: Sendable {
    /// The request exactly as the transport received it.
    public let request: HTTPRequest
    /// The body bytes captured when the request was recorded: bytes in memory, a file's contents, or a restartable
    /// producer read once more (a multipart form); `nil` for a one-time body, which a mock does not consume.
    private let capturedBody: Data?

    /// Wraps `request`; a body in memory or a file is read as it is asked for.
    ///
    /// - Parameter request: The request to inspect.
    public init(_ request: HTTPRequest) {
        self.request = request
        self.capturedBody = nil
    }

    /// Wraps `request` with the bytes of its body, read when it was recorded.
    package init(_ request: HTTPRequest, body: Data?) {
        self.request = request
        self.capturedBody = body
    }

    /// The bytes of `body` a mock can read without consuming it: bytes, a file's contents, or a restartable
    /// producer read once more; `nil` otherwise.
    package static func capture(_ body: HTTPBody) async -> Data? {
        if let data = body.data { return data.isEmpty ? nil : data }
        if let file = body.fileURL { return try? FileContents.read(file) }
        guard body.isReplayable else { return nil }
        return try? await body.collect(upTo: Int.max)
    }

    /// The HTTP method.
    public var method: HTTPMethod { request.method }

    /// The path, percent-decoded, without the query, such as `/v1/users/42`.
    public var path: String {
        let bare = request.path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return String(bare).removingPercentEncoding ?? String(bare)
    }

    /// The query items in order, percent-decoded.
    public var queryItems: [URLQueryItem] {
        guard let mark = request.path.firstIndex(of: "?") else { return [] }
        var components = URLComponents()
        components.percentEncodedQuery = String(request.path[request.path.index(after: mark)...])
        return components.queryItems ?? []
    }

    /// The query as a dictionary; for a repeated name, the last value wins; a bare name maps to `""`.
    public var query: [String: String] {
        queryItems.reduce(into: [:]) { result, item in result[item.name] = item.value ?? "" }
    }

    /// Every header field as sent, in order, names as written.
    public var headerFields: HTTPFields { request.headerFields }

    /// The value of header `name`, compared without regard to letter case; `nil` when absent.
    ///
    /// - Parameter name: The header name.
    /// - Returns: The value (repeated fields joined), or `nil`.
    public func header(_ name: HTTPField.Name) -> String? {
        request.headerFields[name]
    }

    /// The body bytes; `nil` when there is no body. For a file body, the file's contents; for a restartable
    /// producer (a multipart form), the bytes it produced when the mock recorded the request (`nil` if a file of it
    /// could not be read). `nil` for a one-time body, which a mock does not consume.
    public var body: Data? {
        if let capturedBody { return capturedBody }
        if let data = request.body.data { return data.isEmpty ? nil : data }
        if let file = request.body.fileURL { return try? FileContents.read(file) }
        return nil
    }

    /// The parts of a `multipart/form-data` body, decoded with the boundary of the request's `Content-Type`.
    ///
    /// ```swift
    /// let parts = try mock.requests(to: .post, "/uploads")[0].formParts()
    /// #expect(parts.map(\.name) == ["author", "movie"])
    /// ```
    /// - Returns: The parts in order.
    /// - Throws: ``RecordedFormPart/DecodingError`` when the request has no boundary or the body does not follow the
    ///   format.
    public func formParts() throws -> [RecordedFormPart] {
        guard let contentType = header(.contentType), let range = contentType.range(of: "boundary=") else {
            throw RecordedFormPart.DecodingError(reason: "the request's Content-Type names no boundary")
        }
        let boundary = contentType[range.upperBound...].split(separator: ";").first.map {
            $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        }
        guard let boundary, !boundary.isEmpty, let body else {
            throw RecordedFormPart.DecodingError(reason: "no boundary or no body")
        }
        return try RecordedFormPart.decode(body, boundary: boundary)
    }

    /// The body as UTF-8 text; `nil` when there is no body.
    public var bodyText: String? { body.map { String(decoding: $0, as: UTF8.self) } }

    /// The body decoded from JSON.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - decoder: The decoder; use one matching the client's encoder when it has custom strategies.
    /// - Returns: The decoded value.
    /// - Throws: ``RecordedRequest/MissingBody`` when there is no body, or the decoder's error.
    public func decodedBody<T: Decodable>(as type: T.Type = T.self, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        guard let body, !body.isEmpty else { throw MissingBody(request: description) }
        return try decoder.decode(T.self, from: body)
    }

    /// Thrown by ``decodedBody(as:decoder:)`` when the request has no body.
    public struct MissingBody: Error, CustomStringConvertible {
        /// The request, as `METHOD /path`.
        public let request: String
        /// Says which request had no body.
        public var description: String { "\(request) has no body to decode" }
    }
}

extension RecordedRequest: CustomStringConvertible {
    /// `METHOD /path?query`, for failure messages.
    public var description: String {
        "\(method.rawValue) \(request.path)"
    }
}

extension RecordedRequest.MissingBody: LocalizedError {
    /// The same text as `description`, so `localizedDescription` reads as well.
    public var errorDescription: String? { description }
}
