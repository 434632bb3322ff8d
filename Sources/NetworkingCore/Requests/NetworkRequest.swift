import Foundation
import NetworkingHTTP

/// A typed description of one HTTP call: what to send, and how to turn the answer into `Response`.
///
/// A request is a plain value; nothing is sent until ``NetworkClient/send(_:behavior:)`` is called, so requests
/// can be built, stored and inspected in tests without a client.
///
/// ```swift
/// struct User: Decodable, Sendable { let id: Int; let name: String }
///
/// let user = NetworkRequest<User>(.get, path: "/users/42")
/// let created = NetworkRequest<User>(.post, path: "/users", body: .json(NewUser(name: "Ada")))
/// let ping = NetworkRequest<Void>(.head, path: "/health")
/// ```
///
/// `Response` decides the decoding: any `Decodable` type is read as JSON with the client's decoder; `Data` is
/// returned as received; `String` is decoded as text using the response's charset (UTF-8 by default);
/// `Void` and ``EmptyResponse`` ignore the body, so 204, 205 and `HEAD` answers work.
public struct NetworkRequest<Response: Sendable>: Sendable {
    /// Where a request goes: a path appended to the client's base URL, or an absolute URL.
    public enum Endpoint: Sendable, Hashable {
        /// A path (optionally with a `?query`) appended to the client's base URL.
        case path(String)
        /// An absolute `http` or `https` URL; the client's base URL is not used.
        case url(URL)
    }

    /// Turns a received body into `Response`. Receives the body, the response head and the client's decoder.
    public typealias Decode = @Sendable (Data, HTTPResponse, JSONDecoder) throws -> Response

    /// The HTTP method.
    public var method: HTTPMethod
    /// The path or URL the request goes to.
    public var endpoint: Endpoint
    /// Query items appended to the URL, in order. `nil` values are sent as a bare name.
    public var query: [URLQueryItem]
    /// Header fields set on this request, sent with the letter case they are written in. They take precedence over
    /// headers added by behaviors' `additionalHeaders`. Every write is checked (see `HTTPFields`).
    public var headers: HTTPFields
    /// The body, if any. `GET` and `HEAD` requests may not have one.
    public var body: RequestBody?
    /// The time limit of each attempt, overriding the client's ``NetworkClient/Configuration/timeout``.
    public var timeout: Duration?
    /// The time limit of the whole call including retries, overriding ``NetworkClient/Configuration/deadline``.
    public var deadline: Duration?
    /// Status codes accepted as success for this request, overriding the client's.
    public var acceptableStatusCodes: Set<Int>?
    /// How the body is turned into `Response`.
    public var decode: Decode
    /// The `Accept` value sent when neither ``headers`` nor a behavior sets one: `application/json` for a response
    /// read as JSON (any `Decodable` but `Data`, `String` and ``EmptyResponse``), `nil` (none sent) otherwise.
    public var defaultAccept: String?
    /// Whether a redirect answered to this request is followed: `false` returns the 3xx itself (accept it with
    /// ``acceptableStatusCodes`` to get it as a response), `true` follows it, `nil` (the default) leaves it to the
    /// client's `NetworkClient/Configuration/followsRedirects`.
    public var followsRedirects: Bool?
    /// Values for behaviors to read from ``RequestContext/metadata`` (see ``RequestMetadata``).
    public var metadata = RequestMetadata()

    /// The name of the endpoint this request is for, such as `getUser`: behaviors read it from the context, and
    /// the logging behavior prints it. Stored in ``metadata`` under ``EndpointName``.
    public var endpointName: String? {
        get { metadata[EndpointName.self] }
        set { metadata[EndpointName.self] = newValue }
    }

    /// Creates a request with an explicit decoding closure; the typed initialisers call this one.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - endpoint: A path relative to the client's base URL, or an absolute URL.
    ///   - query: Query items appended to the URL.
    ///   - headers: Header fields; they win over behaviors' `additionalHeaders`.
    ///   - body: The body to send.
    ///   - timeout: The limit of each attempt; `nil` uses the client's.
    ///   - deadline: The limit of the whole call, retries included; `nil` uses the client's.
    ///   - acceptableStatusCodes: Statuses accepted as success; `nil` uses the client's.
    ///   - decode: Turns the received body into `Response`.
    public init(
        method: HTTPMethod,
        endpoint: Endpoint,
        query: [URLQueryItem] = [],
        headers: HTTPFields = [:],
        body: RequestBody? = nil,
        timeout: Duration? = nil,
        deadline: Duration? = nil,
        acceptableStatusCodes: Set<Int>? = nil,
        decode: @escaping Decode
    ) {
        self.method = method
        self.endpoint = endpoint
        self.query = query
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.deadline = deadline
        self.acceptableStatusCodes = acceptableStatusCodes
        self.decode = decode
        self.defaultAccept = nil
    }

    /// A short name for logs and errors: the method and the path (or the URL without credentials and query).
    public var name: String {
        switch endpoint {
        case .path(let path):
            let bare = path.utf8[..<(path.utf8.firstIndex(of: UInt8(ascii: "?")) ?? path.utf8.endIndex)]
            var name = method.rawValue
            name.append(" ")
            if bare.isEmpty { name.append("/") } else { name.append(contentsOf: Substring(bare)) }
            return name
        case .url(let url):
            return "\(method.rawValue) \(url.displayString)"
        }
    }

    /// The same request with a different response type and decoding (``defaultAccept`` and ``metadata`` are kept).
    public func withResponse<Other: Sendable>(
        _ type: Other.Type = Other.self,
        decode: @escaping NetworkRequest<Other>.Decode
    ) -> NetworkRequest<Other> {
        let target: NetworkRequest<Other>.Endpoint
        switch endpoint {
        case .path(let path): target = .path(path)
        case .url(let url): target = .url(url)
        }
        var copy = NetworkRequest<Other>(
            method: method, endpoint: target, query: query, headers: headers, body: body, timeout: timeout,
            deadline: deadline, acceptableStatusCodes: acceptableStatusCodes, decode: decode)
        copy.defaultAccept = defaultAccept
        copy.metadata = metadata
        copy.followsRedirects = followsRedirects
        return copy
    }
}
