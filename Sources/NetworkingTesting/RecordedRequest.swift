import Foundation
import Networking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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
    public let urlRequest: URLRequest

    /// Wraps `urlRequest`.
    ///
    /// - Parameter urlRequest: The request to inspect.
    public init(_ urlRequest: URLRequest) {
        self.urlRequest = urlRequest
    }

    /// The HTTP method; `GET` when the request has none.
    public var method: HTTPMethod { HTTPMethod(rawValue: urlRequest.httpMethod ?? "GET") }

    /// The URL's path, percent-decoded, such as `/v1/users/42`; `/` when empty.
    public var path: String {
        guard let url = urlRequest.url else { return "/" }
        let path = URLComponents(url: url, resolvingAgainstBaseURL: true)?.path ?? url.path
        return path.isEmpty ? "/" : path
    }

    /// The query items in order, percent-decoded.
    public var queryItems: [URLQueryItem] {
        guard let url = urlRequest.url else { return [] }
        return URLComponents(url: url, resolvingAgainstBaseURL: true)?.queryItems ?? []
    }

    /// The query as a dictionary; for a repeated name, the last value wins; a bare name maps to `""`.
    public var query: [String: String] {
        queryItems.reduce(into: [:]) { result, item in result[item.name] = item.value ?? "" }
    }

    /// Every header field as sent.
    public var headers: [String: String] { urlRequest.allHTTPHeaderFields ?? [:] }

    /// The value of header `name`, compared without regard to letter case; `nil` when absent.
    ///
    /// - Parameter name: The header name.
    /// - Returns: The value, or `nil`.
    public func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.key.lowercased() == lowered }?.value
    }

    /// The body bytes; `nil` when there is no body.
    public var body: Data? { urlRequest.httpBody }

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
        let query = urlRequest.url.flatMap {
            URLComponents(url: $0, resolvingAgainstBaseURL: true)?.percentEncodedQuery
        }
        return "\(method.rawValue) \(path)" + (query.map { "?\($0)" } ?? "")
    }
}
