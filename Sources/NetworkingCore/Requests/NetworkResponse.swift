import Foundation
import NetworkingHTTP

/// A decoded value together with everything that came with it: the response head, the raw body and the request.
public struct NetworkResponse<Value: Sendable>: Sendable {
    /// The decoded value.
    public let value: Value
    /// The response head: status, header fields, and the URL that answered.
    public let response: HTTPResponse
    /// The body as received (after any content decoding done by the transport, such as gzip).
    public let body: Data
    /// The request as the client built it from the ``NetworkRequest``, before behaviors changed it.
    public let builtRequest: HTTPRequest
    /// The trailer fields the server sent after the body (`HTTPBody/trailerFields`); `nil` when none came or the
    /// transport cannot read them.
    public let trailerFields: HTTPFields?

    /// Creates a response; the client does this, tests may too.
    ///
    /// - Parameters:
    ///   - value: The decoded value.
    ///   - response: The response head.
    ///   - body: The body as received.
    ///   - builtRequest: The request as built.
    public init(value: Value, response: HTTPResponse, body: Data, builtRequest: HTTPRequest) {
        self.init(value: value, response: response, body: body, trailerFields: nil, builtRequest: builtRequest)
    }

    /// Creates a response with the trailer fields that came after its body; the client does this, tests may too.
    ///
    /// - Parameters:
    ///   - value: The decoded value.
    ///   - response: The response head.
    ///   - body: The body as received.
    ///   - trailerFields: The trailer fields sent after the body, if any.
    ///   - builtRequest: The request as built.
    public init(
        value: Value, response: HTTPResponse, body: Data, trailerFields: HTTPFields?, builtRequest: HTTPRequest
    ) {
        self.value = value
        self.response = response
        self.body = body
        self.trailerFields = trailerFields
        self.builtRequest = builtRequest
    }

    /// The HTTP status code.
    public var statusCode: Int { response.status.code }

    /// The same response with its value transformed.
    ///
    /// - Parameter transform: Turns the value into another.
    /// - Returns: The response with the new value.
    public func map<Other: Sendable>(_ transform: (Value) throws -> Other) rethrows -> NetworkResponse<Other> {
        NetworkResponse<Other>(
            value: try transform(value), response: response, body: body, trailerFields: trailerFields,
            builtRequest: builtRequest)
    }
}
