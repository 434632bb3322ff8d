import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one error ``NetworkClient`` throws (besides `CancellationError`): which stage failed, for which request,
/// with the response, body and underlying error when there were any.
///
/// ```swift
/// do {
///     let user = try await client.send(NetworkRequest<User>(path: "/users/42"))
/// } catch let error as NetworkError where error.statusCode == 404 {
///     showNotFound()
/// }
/// ```
///
/// Cancellation is never wrapped: a cancelled call throws `CancellationError`, so no retry acts on it.
public struct NetworkError: Error, Sendable {
    /// The stage that failed.
    public enum Kind: Sendable, Hashable {
        /// The request was refused before any I/O: bad URL, method, header, or a body on `GET`/`HEAD`.
        case invalidRequest
        /// The body could not be encoded.
        case encoding
        /// The transport produced no response; the code says why.
        case transport(TransportError.Code)
        /// A time limit set by the client ran out: one attempt's, or the whole call's.
        case timedOut(TimeoutScope)
        /// The server answered with a status outside the acceptable set.
        case unacceptableStatus(Int)
        /// The body could not be decoded into the response type.
        case decoding
        /// A behavior threw an error of its own; the associated value is the behavior's type name.
        case behavior(String)
    }

    /// Which time limit ran out.
    public enum TimeoutScope: String, Sendable, Hashable {
        /// One attempt: ``NetworkRequest/timeout`` or ``NetworkClient/Configuration/timeout``.
        case attempt
        /// The whole call, retries included: ``NetworkRequest/deadline`` or ``NetworkClient/Configuration/deadline``.
        case call
    }

    /// The stage that failed.
    public let kind: Kind
    /// The request's ``NetworkRequest/name``, such as `GET /users/42`.
    public let requestName: String
    /// What went wrong, in a sentence.
    public let message: String
    /// The request as it was about to be sent, when it had been built.
    public let request: URLRequest?
    /// The response head, when one arrived.
    public let response: HTTPURLResponse?
    /// The response body, when one arrived.
    public let body: Data?
    /// The error behind this one: a ``TransportError``, `DecodingError`, `EncodingError` or a behavior's error.
    public let underlyingError: (any Error)?

    /// Creates an error. The client creates these; behaviors and transports may too.
    public init(
        _ kind: Kind,
        requestName: String,
        message: String,
        request: URLRequest? = nil,
        response: HTTPURLResponse? = nil,
        body: Data? = nil,
        underlyingError: (any Error)? = nil
    ) {
        self.kind = kind
        self.requestName = requestName
        self.message = message
        self.request = request
        self.response = response
        self.body = body
        self.underlyingError = underlyingError
    }

    /// The status code of the response, when one arrived.
    public var statusCode: Int? { response?.statusCode }

    /// The ``TransportError`` behind a transport failure.
    public var transportError: TransportError? { underlyingError as? TransportError }

    /// Up to `limit` characters of the body as text, with control characters escaped; empty when there is none.
    public func bodySnippet(limit: Int = 256) -> String {
        guard let body, !body.isEmpty else { return "" }
        let text = String(decoding: body.prefix(limit), as: UTF8.self)
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    escaped += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return body.count > limit ? escaped + "… (\(body.count) bytes)" : escaped
    }
}

extension NetworkError: CustomStringConvertible {
    /// One line for a log: `NetworkError.unacceptableStatus(503) for GET /users/42: … body: {…}`.
    public var description: String {
        var line = "NetworkError.\(kind) for \(requestName): \(message)"
        if let underlyingError, !message.contains("\(underlyingError)") {
            line += " [underlying: \(underlyingError)]"
        }
        let snippet = bodySnippet()
        if !snippet.isEmpty { line += " body: \(snippet)" }
        return line
    }
}

extension NetworkError.Kind: CustomStringConvertible {
    /// The case name with its value, such as `unacceptableStatus(503)` or `transport(cannotConnect)`.
    public var description: String {
        switch self {
        case .invalidRequest: "invalidRequest"
        case .encoding: "encoding"
        case .transport(let code): "transport(\(code.rawValue))"
        case .timedOut(let scope): "timedOut(\(scope.rawValue))"
        case .unacceptableStatus(let status): "unacceptableStatus(\(status))"
        case .decoding: "decoding"
        case .behavior(let name): "behavior(\(name))"
        }
    }
}

extension NetworkError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
