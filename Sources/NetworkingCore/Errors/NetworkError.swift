import Foundation
import NetworkingHTTP

/// The one error ``NetworkClient`` throws (besides `CancellationError`): which stage failed, for which request,
/// with the response, body and underlying error when there were any.
///
/// ```swift
/// do {
///     let user = try await client.send(NetworkRequest<User>(path: "/users/42"))
///     print(user.name)
/// } catch let error as NetworkError where error.statusCode == 404 {
///     showNotFound()
/// }
/// ```
///
/// Cancellation is never wrapped: a cancelled call throws `CancellationError`, so no retry acts on it.
///
/// Its texts (``description``, string interpolation, `localizedDescription`) never contain a secret of the request
/// that was sent: the values of sensitive header fields (`Authorization`, `Cookie`, `Proxy-Authorization`, and any
/// field marked sensitive, such as a custom API-key header set by `.authorization`), their credential part after
/// the scheme, and the values of secret query parameters (``Redaction/defaultQueryParameterNames``) are replaced
/// by `<redacted>` wherever they appear, a body that echoes them included (values shorter than 4 characters are
/// not searched for in the text, as they would match too much). The stored ``body`` and ``message`` are left as
/// they came, for code that needs them.
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
        /// A download could not create, write or move its file: the `underlyingError` is a `DownloadFileError`.
        case fileSystem
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
    /// The request as the client built it from the ``NetworkRequest``, before behaviors changed it; `nil` when it
    /// could not be built.
    public let builtRequest: HTTPRequest?
    /// The request as the transport received it on the attempt that failed, after every behavior ran; `nil` when
    /// no attempt reached the transport.
    public let sentRequest: HTTPRequest?
    /// The response head, when one arrived.
    public let response: HTTPResponse?
    /// The response body, when one arrived.
    public let body: Data?
    /// The error behind this one: a ``TransportError``, `DecodingError`, `EncodingError` or a behavior's error.
    public let underlyingError: (any Error)?
    /// What each attempt of the call got, in the order they ended (`[503, 503, 503]` after a retry gave up); empty
    /// when no attempt ran, such as a request refused before any I/O. Set by the client on the error it throws.
    public package(set) var attempts: [AttemptOutcome] = []

    /// Creates an error. The client creates these; behaviors and transports may too.
    ///
    /// - Parameters:
    ///   - kind: The stage that failed.
    ///   - requestName: The request's name.
    ///   - message: What went wrong, in a sentence.
    ///   - builtRequest: The request as built, if it was.
    ///   - sentRequest: The request as the transport received it, if it did.
    ///   - response: The response head, if one arrived.
    ///   - body: The response body, if one arrived.
    ///   - underlyingError: The error behind this one.
    public init(
        _ kind: Kind,
        requestName: String,
        message: String,
        builtRequest: HTTPRequest? = nil,
        sentRequest: HTTPRequest? = nil,
        response: HTTPResponse? = nil,
        body: Data? = nil,
        underlyingError: (any Error)? = nil
    ) {
        self.kind = kind
        self.requestName = requestName
        self.message = message
        self.builtRequest = builtRequest
        self.sentRequest = sentRequest
        self.response = response
        self.body = body
        self.underlyingError = underlyingError
    }

    /// The status code of the response, when one arrived.
    public var statusCode: Int? { response?.status.code }

    /// The ``TransportError`` behind a transport failure.
    public var transportError: TransportError? { underlyingError as? TransportError }

    /// Up to `limit` bytes of the body as text, with control characters escaped and the request's secrets
    /// redacted (one that begins before the cut is replaced whole); empty when there is none.
    ///
    /// - Parameter limit: The most bytes of the body to show.
    /// - Returns: The snippet, ending with `… (N bytes)` when the body is longer.
    public func bodySnippet(limit: Int = 256) -> String {
        guard let body, !body.isEmpty else { return "" }
        let text = DisplayText.escapingControlCharacters(
            Redaction.scrubbedPrefix(of: body, limit: limit, secrets: secrets))
        return body.count > max(limit, 0) ? text + "… (\(body.count) bytes)" : text
    }

    /// Where the request went: the origin it was sent to (`scheme://host`, with the port when the URL names one)
    /// and its path, without query (whose values may be secrets) or fragment; the request as the transport received
    /// it on the attempt that failed (after redirects), else as built; `nil` when it could not be built. A URL never
    /// carries a user or password here: a request target refuses them.
    package var target: String? {
        guard let request = sentRequest ?? builtRequest else { return nil }
        return "\(request.scheme)://\(request.authority)\(request.pathWithoutQuery)"
    }

    /// The secrets of the request as sent (or as built), in every form they may be echoed in.
    package var secrets: [String] {
        guard let request = sentRequest ?? builtRequest else { return [] }
        return Redaction.default.secrets(in: request)
    }
}

extension NetworkError: CustomStringConvertible, CustomDebugStringConvertible {
    /// One line for a log, secrets redacted:
    /// `NetworkError.unacceptableStatus(503) for GET /users/42 at https://api.example.com/v1/users/42: … body: {…}`;
    /// after more than one attempt, what each got: `… for GET /users/42 at https://… after 3 attempts: 503, 503, 503:
    /// …`. The URL is where the request went (the origin and path, without user, password or query), so a wrong host
    /// or a base URL missing its `/v1` shows where a bare `404` came from.
    public var description: String {
        var line = "NetworkError.\(kind) for \(requestName)"
        if let target, !requestName.contains(target) { line += " at \(target)" }
        line += "\(AttemptOutcome.summary(attempts)): \(message)"
        if let underlyingError, !message.contains("\(underlyingError)") {
            line += " [underlying: \(underlyingError)]"
        }
        let snippet = bodySnippet()
        if !snippet.isEmpty { line += " body: \(snippet)" }
        return Redaction.scrub(DisplayText.escapingControlCharacters(line), secrets: secrets)
    }

    /// The same text as ``description``.
    public var debugDescription: String { description }
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
        case .fileSystem: "fileSystem"
        }
    }
}

extension NetworkError: LocalizedError {
    /// The same text as ``description``, secrets redacted.
    public var errorDescription: String? { description }
}
