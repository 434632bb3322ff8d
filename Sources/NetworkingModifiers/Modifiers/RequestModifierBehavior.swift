import Foundation
import NetworkingCore
import NetworkingHTTP

/// Runs a closure that may change the `HTTPRequest` on every attempt: signing, a timestamp, a per-call id.
///
/// ```swift
/// let signing: RequestModifierBehavior = .modifyRequest { request in
///     request.headerFields["X-Signature"] = try await signer.signature(for: request)
/// }
/// ```
/// - It runs in ``modify(request:context:)``, on every pass: inside a retry behavior, once per attempt.
/// - It may change anything, including headers the `NetworkRequest` set itself. Every write is checked as it
///   is made: a CR or LF in a header, or a non-HTTP scheme, fails the call with kind `invalidRequest`, with
///   nothing sent.
/// - An error it throws fails the call with `NetworkError` of kind `behavior("RequestModifierBehavior")`;
///   nothing is sent.
///
/// Defaults: none. State kept: none (capture your own `Sendable` state in the closure).
public struct RequestModifierBehavior: RequestBehavior {
    /// `BehaviorPlacement/modification`: with the other changes to the request.
    public var placement: BehaviorPlacement { .modification }

    private let modifier: @Sendable (inout HTTPRequest) async throws -> Void

    /// Creates the behavior.
    ///
    /// - Parameter modifier: Changes the request in place; may suspend and may throw.
    public init(_ modifier: @escaping @Sendable (inout HTTPRequest) async throws -> Void) {
        self.modifier = modifier
    }

    /// Applies the closure to a copy of `request`.
    ///
    /// - Parameters:
    ///   - request: The request as the outer behaviors left it.
    ///   - context: The call's context.
    /// - Returns: The changed request.
    /// - Throws: What the closure threw.
    public func modify(request: HTTPRequest, context: RequestContext) async throws -> HTTPRequest {
        var request = request
        try await modifier(&request)
        return request
    }

    /// Runs the modifier, then calls `next`: what the default hooks do, without their empty calls.
    ///
    /// - Parameters:
    ///   - request: The request so far.
    ///   - context: The call's context.
    ///   - next: The rest of the chain.
    /// - Returns: What `next` returned.
    /// - Throws: What the modifier or `next` threw.
    public func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        var request = request
        try await modifier(&request)
        return try await next(request)
    }
}

extension RequestModifierBehavior: RequestRewritingBehavior {
    /// Runs the closure on `request` in place: what the chain runs when this behavior shares a level with other
    /// rewriters.
    package func rewrite(_ request: inout HTTPRequest, context: RequestContext) async throws {
        try await modifier(&request)
    }
}

extension RequestBehavior where Self == RequestModifierBehavior {
    /// Changes the request on every attempt: `.modifyRequest { request in request.headerFields["X-Client"] = "ios" }`.
    ///
    /// - Parameter modifier: Changes the request in place; may suspend and may throw.
    /// - Returns: The behavior.
    public static func modifyRequest(_ modifier: @escaping @Sendable (inout HTTPRequest) async throws -> Void)
        -> RequestModifierBehavior
    {
        RequestModifierBehavior(modifier)
    }
}
