import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A decoded value together with everything that came with it: the response head, the raw body and the request.
public struct NetworkResponse<Value: Sendable>: Sendable {
    /// The decoded value.
    public let value: Value
    /// The body as received (after any content decoding done by the transport, such as gzip).
    public let data: Data
    /// The response head: status, headers and the final URL after redirects.
    public let httpResponse: HTTPURLResponse
    /// The request as the client built it, before behaviors changed it.
    public let request: URLRequest

    /// Creates a response; the client does this, tests may too.
    public init(value: Value, data: Data, httpResponse: HTTPURLResponse, request: URLRequest) {
        self.value = value
        self.data = data
        self.httpResponse = httpResponse
        self.request = request
    }

    /// The HTTP status code.
    public var statusCode: Int { httpResponse.statusCode }

    /// The same response with its value transformed.
    public func map<Other: Sendable>(_ transform: (Value) throws -> Other) rethrows -> NetworkResponse<Other> {
        NetworkResponse<Other>(value: try transform(value), data: data, httpResponse: httpResponse, request: request)
    }
}
