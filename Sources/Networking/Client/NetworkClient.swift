import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends typed ``NetworkRequest``s through a chain of ``RequestBehavior``s and an ``HTTPTransport``.
///
/// Build one client at start-up with the behaviors every call needs, and pass per-request behaviors at call sites:
/// ```swift
/// enum API {
///     static let client = NetworkClient(
///         baseURL: URL(string: "https://api.example.com")!,
///         behavior: CombinedBehavior([LogEverything(), AddAPIKey()])
///     )
/// }
/// let user = try await API.client.send(NetworkRequest<User>(path: "/users/42"), behavior: ShowSpinner())
/// ```
/// The client is immutable and `Sendable`: share it freely between tasks.
///
/// Each call: builds the `URLRequest` and refuses a bad one before any I/O; runs it through the client-wide
/// behavior, then the per-request behavior, then the transport; checks the status; decodes the body. Every
/// failure is a ``NetworkError`` naming the request, except cancellation, which is `CancellationError`.
public final class NetworkClient: Sendable {
    /// What the client was built from.
    public let configuration: Configuration

    /// The base URL, checked once.
    let base: URLBuilder.Base?
    /// The client-wide behavior, flattened once.
    let clientWideChain: BehaviorChain

    /// Creates a client from a full configuration.
    public init(configuration: Configuration) {
        self.configuration = configuration
        self.base = configuration.baseURL.map(URLBuilder.Base.init)
        self.clientWideChain = BehaviorChain([configuration.behavior])
    }

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - baseURL: The URL request paths are appended to.
    ///   - transport: How requests travel; the shared default transport by default.
    ///   - behavior: The client-wide behavior; it wraps every call's per-request behavior.
    public convenience init(
        baseURL: URL?,
        transport: (any HTTPTransport)? = nil,
        behavior: any RequestBehavior = EmptyBehavior()
    ) {
        self.init(configuration: Configuration(baseURL: baseURL, transport: transport, behavior: behavior))
    }

    /// Sends `request` and returns its decoded value.
    ///
    /// - Parameters:
    ///   - request: What to send and how to decode the answer.
    ///   - behavior: Behavior for this call only; the client-wide behavior wraps it.
    /// - Returns: The decoded value.
    /// - Throws: ``NetworkError`` for any failure, `CancellationError` when the task is cancelled.
    public func send<Response>(
        _ request: NetworkRequest<Response>,
        behavior: any RequestBehavior = EmptyBehavior()
    ) async throws -> Response {
        try await response(for: request, behavior: behavior).value
    }

    /// Sends `request` and returns the decoded value with the response head, raw body and built request.
    ///
    /// - Parameters:
    ///   - request: What to send and how to decode the answer.
    ///   - behavior: Behavior for this call only; the client-wide behavior wraps it.
    /// - Returns: The value, response head, body and request.
    /// - Throws: ``NetworkError`` for any failure, `CancellationError` when the task is cancelled.
    public func response<Response>(
        for request: NetworkRequest<Response>,
        behavior: any RequestBehavior = EmptyBehavior()
    ) async throws -> NetworkResponse<Response> {
        let name = request.name
        let urlRequest = try buildURLRequest(request, name: name)
        let deadline = (request.deadline ?? configuration.deadline).map {
            CallDeadline(limit: $0, clock: configuration.clock)
        }
        let context = RequestContext(
            requestName: name, callID: CallIDs.next(), explicitHeaderNames: Set(request.headers.keys),
            deadline: deadline)
        let chain = BehaviorChain(clientWide: clientWideChain, perRequest: behavior)
        let terminal = attemptHandler(
            name: name, timeout: request.timeout ?? configuration.timeout, deadline: deadline,
            acceptable: request.acceptableStatusCodes ?? configuration.acceptableStatusCodes)
        let (data, response) = try await chain.handler(context: context, terminal: terminal)(urlRequest)
        do {
            let value = try request.decode(data, response, configuration.decoder)
            return NetworkResponse(value: value, data: data, httpResponse: response, request: urlRequest)
        } catch {
            throw NetworkError(
                .decoding, requestName: name,
                message: "the body could not be decoded as \(Response.self): \(Self.describe(error))",
                request: urlRequest, response: response, body: data, underlyingError: error)
        }
    }

    /// A readable one-liner for a `DecodingError`: what failed and at which coding path.
    static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        let context: DecodingError.Context
        switch decoding {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c):
            context = c
        @unknown default:
            return "\(error)"
        }
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return path.isEmpty ? context.debugDescription : "\(context.debugDescription) (at \(path))"
    }
}
