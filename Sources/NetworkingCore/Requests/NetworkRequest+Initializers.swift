import Foundation
import NetworkingHTTP

extension NetworkRequest where Response: Decodable {
    /// Creates a request to `path`, relative to the client's base URL, whose answer is decoded as `Response`.
    ///
    /// `Response` is read as JSON, except `Data` (returned as received), `String` (text in the response's
    /// charset) and ``EmptyResponse`` (body ignored). A JSON response sends `Accept: application/json` unless the
    /// request or a behavior sets `Accept` (see ``defaultAccept``); an optional `Response` is `nil` when the body is
    /// empty (a 204).
    ///
    /// - Parameters:
    ///   - method: The HTTP method; `GET` by default.
    ///   - path: A path such as `"/users/42"`, appended to the client's base URL. It may carry a `?query`. It is
    ///     text: what a URL cannot carry raw (a space, quotes, `<>`, non-ASCII) is percent-encoded (RFC 3986 §2.1), an
    ///     `%XX` given is kept, a control character or a `.`/`..` segment is refused (`invalidRequest`).
    ///   - query: Query items appended to the URL.
    ///   - headers: Header fields; they win over behaviors' `additionalHeaders`.
    ///   - body: The body to send.
    ///   - timeout: The limit of each attempt; `nil` uses the client's.
    ///   - deadline: The limit of the whole call, retries included; `nil` uses the client's.
    ///   - acceptableStatusCodes: Statuses accepted as success; `nil` uses the client's.
    public init(
        _ method: HTTPMethod = .get,
        path: String,
        query: [URLQueryItem] = [],
        headers: HTTPFields = [:],
        body: RequestBody? = nil,
        timeout: Duration? = nil,
        deadline: Duration? = nil,
        acceptableStatusCodes: Set<Int>? = nil
    ) {
        self.init(
            method: method, endpoint: .path(path), query: query, headers: headers, body: body, timeout: timeout,
            deadline: deadline, acceptableStatusCodes: acceptableStatusCodes, decode: ResponseDecoding.decodable)
        defaultAccept = ResponseDecoding.isJSON(Response.self) ? "application/json" : nil
    }

    /// Creates a request to an absolute `url` whose answer is decoded as `Response`.
    ///
    /// - Parameters:
    ///   - method: The HTTP method; `GET` by default.
    ///   - url: An absolute `http` or `https` URL.
    ///   - query: Query items appended to the URL.
    ///   - headers: Header fields; they win over behaviors' `additionalHeaders`.
    ///   - body: The body to send.
    ///   - timeout: The limit of each attempt; `nil` uses the client's.
    ///   - deadline: The limit of the whole call, retries included; `nil` uses the client's.
    ///   - acceptableStatusCodes: Statuses accepted as success; `nil` uses the client's.
    public init(
        _ method: HTTPMethod = .get,
        url: URL,
        query: [URLQueryItem] = [],
        headers: HTTPFields = [:],
        body: RequestBody? = nil,
        timeout: Duration? = nil,
        deadline: Duration? = nil,
        acceptableStatusCodes: Set<Int>? = nil
    ) {
        self.init(
            method: method, endpoint: .url(url), query: query, headers: headers, body: body, timeout: timeout,
            deadline: deadline, acceptableStatusCodes: acceptableStatusCodes, decode: ResponseDecoding.decodable)
        defaultAccept = ResponseDecoding.isJSON(Response.self) ? "application/json" : nil
    }
}

extension NetworkRequest where Response == Void {
    /// Creates a request to `path` whose answer body is ignored (204, 205, `HEAD`, fire-and-forget).
    ///
    /// - Parameters:
    ///   - method: The HTTP method; `GET` by default.
    ///   - path: A path appended to the client's base URL.
    ///   - query: Query items appended to the URL.
    ///   - headers: Header fields; they win over behaviors' `additionalHeaders`.
    ///   - body: The body to send.
    ///   - timeout: The limit of each attempt; `nil` uses the client's.
    ///   - deadline: The limit of the whole call, retries included; `nil` uses the client's.
    ///   - acceptableStatusCodes: Statuses accepted as success; `nil` uses the client's.
    public init(
        _ method: HTTPMethod = .get,
        path: String,
        query: [URLQueryItem] = [],
        headers: HTTPFields = [:],
        body: RequestBody? = nil,
        timeout: Duration? = nil,
        deadline: Duration? = nil,
        acceptableStatusCodes: Set<Int>? = nil
    ) {
        self.init(
            method: method, endpoint: .path(path), query: query, headers: headers, body: body, timeout: timeout,
            deadline: deadline, acceptableStatusCodes: acceptableStatusCodes, decode: { _, _, _ in })
    }

    /// Creates a request to an absolute `url` whose answer body is ignored.
    ///
    /// - Parameters:
    ///   - method: The HTTP method; `GET` by default.
    ///   - url: An absolute `http` or `https` URL.
    ///   - query: Query items appended to the URL.
    ///   - headers: Header fields; they win over behaviors' `additionalHeaders`.
    ///   - body: The body to send.
    ///   - timeout: The limit of each attempt; `nil` uses the client's.
    ///   - deadline: The limit of the whole call, retries included; `nil` uses the client's.
    ///   - acceptableStatusCodes: Statuses accepted as success; `nil` uses the client's.
    public init(
        _ method: HTTPMethod = .get,
        url: URL,
        query: [URLQueryItem] = [],
        headers: HTTPFields = [:],
        body: RequestBody? = nil,
        timeout: Duration? = nil,
        deadline: Duration? = nil,
        acceptableStatusCodes: Set<Int>? = nil
    ) {
        self.init(
            method: method, endpoint: .url(url), query: query, headers: headers, body: body, timeout: timeout,
            deadline: deadline, acceptableStatusCodes: acceptableStatusCodes, decode: { _, _, _ in })
    }
}
