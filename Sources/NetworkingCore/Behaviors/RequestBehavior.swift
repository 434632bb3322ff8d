import Foundation
import NetworkingHTTP

/// The rest of the chain below a behavior: call it to send the request onwards and get the outcome back.
public typealias NextHandler = @Sendable (HTTPRequest) async throws -> (HTTPResponse, HTTPResponse.Body)

/// A side effect or policy wrapped around every call of a ``NetworkClient``: headers, logging, retry, counters.
///
/// ### How the chain runs
/// Behaviors form an onion, ordered by their ``placement``. In `CombinedBehavior([a, b, c])` of one placement, `a`
/// is outermost: the request passes `a`, `b`, `c`, then the transport; the outcome comes back through `c`, `b`, `a`. The client-wide behavior wraps the
/// per-request behavior passed to ``NetworkClient/send(_:behavior:)``. `next` throws ``NetworkError`` for an
/// unacceptable status, so a behavior sees success only for acceptable responses.
///
/// ### Two ways to write one
/// Simple behaviors implement hooks, which have empty defaults, and are tested by calling them:
/// ```swift
/// struct APIVersionHeader: RequestBehavior {
///     var additionalHeaders: [String: String] { ["API-Version": "2"] }
/// }
/// ```
/// Behaviors that wrap the call (timing, retry, counters) implement ``intercept(_:context:next:)``:
/// ```swift
/// struct Timing: RequestBehavior {
///     let report: @Sendable (Duration) -> Void
///     func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws
///         -> (HTTPResponse, HTTPResponse.Body)
///     {
///         let start = context.clock.now()  // the call's clock, which a test moves
///         defer { report(context.clock.now() - start) }
///         return try await next(request)
///     }
/// }
/// ```
/// The default `intercept` applies the hooks in this order: `additionalHeaders` (never replacing a header the
/// request set itself), `modify(request:context:)`, `beforeSend`, `next`, then exactly one of `afterSuccess` or
/// `afterFailure`, also when `next` throws `CancellationError`.
///
/// ### Rules
/// Be `Sendable`; keep mutable state behind a lock or an actor; rethrow `CancellationError` untouched; call `next`
/// once unless you are retrying. Errors a behavior throws itself reach the caller as ``NetworkError`` of kind
/// ``NetworkError/Kind/behavior(_:)``, naming the behavior's type. Every header a behavior writes is checked as it
/// is written (see `HTTPFields`): a bad one fails the call with `invalidRequest` before any I/O.
public protocol RequestBehavior: Sendable {
    /// Where the behavior runs in the chain; the chain orders behaviors by it, whatever order they were given in.
    /// A behavior of your own is ``BehaviorPlacement/modification`` unless it says otherwise.
    var placement: BehaviorPlacement { get }

    /// Wraps one pass of the request through this behavior. The default implementation runs the hooks.
    ///
    /// - Parameters:
    ///   - request: The request as the outer behaviors left it.
    ///   - context: Facts about the call, the same for every behavior and attempt.
    ///   - next: The rest of the chain. Call it once to send; again to retry; not at all to answer locally. It is
    ///     escaping, so a behavior may run it in a task of its own that outlives one caller, as
    ///     `CoalescingBehavior` does; a conformance may still declare it non-escaping.
    /// - Returns: The response head and body to hand back to the outer behaviors.
    func intercept(_ request: HTTPRequest, context: RequestContext, next: @escaping NextHandler) async throws -> (
        HTTPResponse, HTTPResponse.Body
    )

    /// Headers to add. They replace the same headers from outer behaviors but never a header the request set.
    var additionalHeaders: [String: String] { get }

    /// Returns the request to send, changed as needed. Runs after `additionalHeaders`, before `beforeSend`.
    func modify(request: HTTPRequest, context: RequestContext) async throws -> HTTPRequest

    /// Called just before the request goes on down the chain.
    func beforeSend(request: HTTPRequest, context: RequestContext) async

    /// Called when the rest of the chain returned an acceptable response. Paired with one `beforeSend`.
    func afterSuccess(response: HTTPResponse, body: HTTPResponse.Body, context: RequestContext) async

    /// Called when the rest of the chain threw, `CancellationError` included. Paired with one `beforeSend`.
    func afterFailure(error: any Error, context: RequestContext) async
}

extension RequestBehavior {
    /// ``BehaviorPlacement/modification``: with the behaviors that change the request, inside retries and
    /// credentials, outside the cache and coalescing.
    public var placement: BehaviorPlacement { .modification }

    /// No headers.
    public var additionalHeaders: [String: String] { [:] }

    /// The request unchanged.
    public func modify(request: HTTPRequest, context: RequestContext) async throws -> HTTPRequest { request }

    /// Does nothing.
    public func beforeSend(request: HTTPRequest, context: RequestContext) async {}

    /// Does nothing.
    public func afterSuccess(response: HTTPResponse, body: HTTPResponse.Body, context: RequestContext) async {}

    /// Does nothing.
    public func afterFailure(error: any Error, context: RequestContext) async {}

    /// Applies `additionalHeaders`, `modify`, `beforeSend`, then calls `next` and reports the outcome to
    /// `afterSuccess` or `afterFailure` before returning or rethrowing it.
    public func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        var request = request
        let headers = additionalHeaders
        if !headers.isEmpty {
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
                let name = HTTPField.Name(name)
                if !context.explicitHeaderNames.contains(name.canonicalName) { request.headerFields[name] = value }
            }
        }
        request = try await modify(request: request, context: context)
        await beforeSend(request: request, context: context)
        do {
            let (response, body) = try await next(request)
            await afterSuccess(response: response, body: body, context: context)
            return (response, body)
        } catch {
            await afterFailure(error: error, context: context)
            throw error
        }
    }
}
