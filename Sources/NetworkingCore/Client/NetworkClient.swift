import Foundation
import NetworkingHTTP

/// Sends typed ``NetworkRequest``s through a chain of ``RequestBehavior``s and an ``HTTPTransport``.
///
/// Build one client at start-up with the behaviors every call needs, and pass per-request behaviors at call sites:
/// ```swift
/// enum API {
///     static let client = NetworkClient(
///         baseURL: URL(string: "https://api.example.com")!,
///         behavior: CombinedBehavior([.logging(), .retry()])
///     )
/// }
/// let user = try await API.client.send(NetworkRequest<User>(path: "/users/42"), behavior: .activityCounter())
/// ```
/// The client is immutable and `Sendable`: share it freely between tasks.
///
/// A client-wide behavior that cannot work as written (two retries, an override outside a call: see
/// ``BehaviorConflictError``) is a programmer error, like an index out of range: the initializers stop the program
/// where the client is built, with the conflict's message, the first time it runs. A behavior assembled from
/// run-time configuration is checked with ``init(validating:)``, which throws the conflict instead.
///
/// Each call: builds the `HTTPRequest` and refuses a bad one before any I/O; runs it through the client-wide
/// behavior, then the per-request behavior, then the transport; checks the status; decodes the body. Every
/// failure is a ``NetworkError`` naming the request, except cancellation, which is `CancellationError`.
public final class NetworkClient: Sendable {
    /// What the client was built from.
    public let configuration: Configuration

    /// Builds each call's request; the base URL is checked once, here.
    package let builder: RequestBuilder
    /// The client-wide behavior, flattened once.
    package let clientWideChain: BehaviorChain
    /// Whether the time limit can stop the transport's transfers itself (``InterruptibleTransport``), found once.
    package let transportIsInterruptible: Bool

    /// Creates a client from a full configuration.
    ///
    /// A client-wide behavior that holds two behaviors of one exclusive placement, or an override, stops the
    /// program here with the ``BehaviorConflictError``'s message (`fatalError`, so an optimized build says it too):
    /// written in code, it is a programmer error. The message names the caller's file and line, the line that built
    /// the client. Use ``init(validating:)`` for a behavior assembled at run time.
    ///
    /// - Parameters:
    ///   - configuration: Everything the client is built from.
    ///   - file: The file a conflict is reported at: the caller's, by default.
    ///   - line: The line a conflict is reported at: the caller's, by default.
    public convenience init(configuration: Configuration, file: StaticString = #fileID, line: UInt = #line) {
        do {
            try self.init(validating: configuration)
        } catch {
            fatalError(
                "NetworkClient: the client-wide behavior cannot work as written: \(error)", file: file, line: line)
        }
    }

    /// Creates a client from a full configuration: 1.0.0's initializer, kept for compatibility. A call written
    /// `NetworkClient(configuration:)` resolves to ``init(configuration:file:line:)``, which reports a conflict at
    /// the caller's line.
    ///
    /// - Parameter configuration: Everything the client is built from.
    @_disfavoredOverload
    public convenience init(configuration: Configuration) {
        self.init(configuration: configuration, file: #fileID, line: #line)
    }

    /// Creates a client from a full configuration, throwing a conflict in its client-wide behavior: for behaviors
    /// assembled from run-time configuration (a settings screen, a remote flag), where a conflict is not a
    /// programmer error and should be reported, not trap.
    ///
    /// ```swift
    /// do {
    ///     let client = try NetworkClient(validating: .init(baseURL: api, transport: transport, behavior: chosen))
    ///     _ = try await client.send(NetworkRequest<Data>(path: "/health"))
    /// } catch {
    ///     report(error)  // two behaviors of the retry placement (RetryBehavior, RetryBehavior); keep one ...
    /// }
    /// ```
    ///
    /// - Parameter configuration: Everything the client is built from.
    /// - Throws: ``BehaviorConflictError`` when the client-wide behavior holds two behaviors of one exclusive
    ///   placement, or an override (`catch let error as BehaviorConflictError` reads it).
    public init(validating configuration: Configuration) throws {
        self.configuration = configuration
        self.builder = RequestBuilder(
            baseURL: configuration.baseURL, encoder: configuration.encoder,
            sensitiveHeaderNames: configuration.sensitiveHeaderNames, followsRedirects: configuration.followsRedirects)
        self.clientWideChain = BehaviorChain([configuration.behavior])
        self.transportIsInterruptible = configuration.transport is any InterruptibleTransport
        if let conflict = clientWideChain.conflict { throw conflict }
    }

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - baseURL: The URL request paths are appended to.
    ///   - transport: How requests travel. With `import Networking`, `NetworkClient(baseURL:behavior:)` uses the
    ///     platform's default transport.
    ///   - behavior: The client-wide behavior; it wraps every call's per-request behavior.
    ///
    ///   - file: The file a conflict is reported at: the caller's, by default.
    ///   - line: The line a conflict is reported at: the caller's, by default.
    ///
    /// A conflict in `behavior` stops the program here, at the caller's line, as ``init(configuration:file:line:)``
    /// says.
    public convenience init(
        baseURL: URL?,
        transport: any HTTPTransport,
        behavior: any RequestBehavior = EmptyBehavior(),
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        self.init(
            configuration: Configuration(baseURL: baseURL, transport: transport, behavior: behavior), file: file,
            line: line)
    }

    /// Creates a client: 1.0.0's initializer, kept for compatibility. A call written
    /// `NetworkClient(baseURL:transport:behavior:)` resolves to ``init(baseURL:transport:behavior:file:line:)``,
    /// which reports a conflict at the caller's line.
    ///
    /// - Parameters:
    ///   - baseURL: The URL request paths are appended to.
    ///   - transport: How requests travel.
    ///   - behavior: The client-wide behavior; it wraps every call's per-request behavior.
    @_disfavoredOverload
    public convenience init(
        baseURL: URL?,
        transport: any HTTPTransport,
        behavior: any RequestBehavior = EmptyBehavior()
    ) {
        self.init(baseURL: baseURL, transport: transport, behavior: behavior, file: #fileID, line: #line)
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
        let call = try prepare(request, behavior: behavior)
        let (name, built) = (call.name, call.built)
        let (response, body) = try await call.run(call.attempt.run)
        let data = body.data ?? Data()
        do {
            let value = try request.decode(data, response, configuration.decoder)
            return NetworkResponse(
                value: value, response: response, body: data, trailerFields: body.trailerFields, builtRequest: built)
        } catch {
            throw call.attempt.withAttempts(
                NetworkError(
                    .decoding, requestName: name,
                    message: "the body could not be decoded as \(Response.self): \(Self.describe(error))",
                    builtRequest: built, sentRequest: call.attempt.lastSentRequest, response: response, body: data,
                    underlyingError: error))
        }
    }

    /// Builds the request of a call and the chain that sends it: the built request, the attempt, and a function that
    /// runs the chain down to the given terminal (``Attempt/run(_:)``, or a terminal that wraps it).
    package func prepare<Response>(
        _ request: NetworkRequest<Response>, behavior: any RequestBehavior,
        form: RequestContext.ResponseForm = .buffered
    ) throws -> PreparedCall {
        let name = request.name
        let built = try builder.build(request, name: name)
        let chain = BehaviorChain(clientWide: clientWideChain, perRequest: behavior)
        if let conflict = chain.conflict {
            throw NetworkError(
                .behavior("BehaviorChain"), requestName: name, message: "the per-request behavior: \(conflict)",
                builtRequest: built, underlyingError: conflict)
        }
        let clock = configuration.clock
        let deadline = (request.deadline ?? configuration.deadline).map { CallDeadline(limit: $0, clock: clock) }
        let timeout = request.timeout ?? configuration.timeout
        let explicit = request.headers.isEmpty ? [] : Set(request.headers.map(\.name.canonicalName))
        let attempt = Attempt(
            name: name, builtRequest: built, transport: configuration.transport,
            transportIsInterruptible: transportIsInterruptible, clock: clock, timeout: timeout,
            deadline: deadline, acceptable: request.acceptableStatusCodes ?? configuration.acceptableStatusCodes,
            sensitiveHeaderNames: builder.sensitiveHeaderNames, defaultAccept: request.defaultAccept, form: form,
            maximumBodySize: configuration.maximumResponseBodySize, maximumRedirects: configuration.maximumRedirects,
            followsRedirects: configuration.followsRedirects)
        var context = RequestContext(
            requestName: name, callID: CallIDs.next(), lowercasedHeaderNames: explicit, deadline: deadline,
            attemptTimeout: timeout, clock: clock, metadata: request.metadata, responseForm: form, attempt: attempt)
        context.chainHasCache = chain.hasWireStage && chain.hasCache
        return PreparedCall(name: name, built: built, attempt: attempt, chain: chain, context: context)
    }

    /// A call ready to go: its built request, its attempt, and its chain with the context to run it in. A value,
    /// not a closure, so a call allocates nothing to hold it.
    package struct PreparedCall {
        package let name: String
        package let built: HTTPRequest
        package let attempt: Attempt
        package let chain: BehaviorChain
        package let context: RequestContext

        /// Runs the chain down to `terminal` (``Attempt/run(_:)``, or a terminal that wraps it).
        package func run(_ terminal: @escaping NextHandler) async throws -> (HTTPResponse, HTTPResponse.Body) {
            // A cache or coalescing decides on the request as it will be sent: checked, with the client's sensitive
            // names marked and the default `Accept` added, after every behavior that changes it.
            let attempt = attempt
            let beforeWire: (@Sendable (HTTPRequest) throws -> HTTPRequest)? =
                chain.hasWireStage ? { @Sendable in try attempt.checked($0) } : nil
            do {
                return try await chain.handler(
                    context: context, builtRequest: built, beforeWire: beforeWire, terminal: terminal)(built)
            } catch {
                throw attempt.withAttempts(error)
            }
        }
    }

    /// A readable one-liner for a `DecodingError`: what failed and at which coding path.
    package static func describe(_ error: any Error) -> String {
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
