import Foundation

/// A per-request instruction to remove or replace a client-wide behavior by its type, without rebuilding the
/// client.
///
/// ```swift
/// // No authorization header on the login call.
/// let token = try await client.send(login, behavior: .without(AuthorizationBehavior.self))
/// // No retries for a payment: replace the client's retry with one that never retries.
/// try await client.send(pay, behavior: .replacing(RetryBehavior.self, with: EmptyBehavior()))
/// ```
///
/// Rules: an override acts on the client-wide behaviors only, matching leaves of exactly that type (inside
/// nested `CombinedBehavior`s too). A replacement takes the removed behavior's place, so the chain order stays as
/// the client defined it; when no client-wide behavior has that type, the replacement runs where the override
/// stands in the per-request behavior. `.without` of an absent type does nothing. In a client-wide behavior an
/// override has no effect.
public struct BehaviorOverride: RequestBehavior {
    /// What the override does.
    public enum Action: Sendable {
        /// Remove every client-wide behavior of the type.
        case remove
        /// Put this behavior in place of every client-wide behavior of the type.
        case replace(with: any RequestBehavior)
    }

    /// The type of behavior acted on.
    public let target: any RequestBehavior.Type
    /// Remove or replace.
    public let action: Action

    /// Creates an override of `target`.
    ///
    /// - Parameters:
    ///   - target: The type of client-wide behavior to act on.
    ///   - action: Remove it, or replace it.
    public init(_ target: any RequestBehavior.Type, action: Action) {
        self.target = target
        self.action = action
    }

    /// Whether `behavior` is of the target type.
    func matches(_ behavior: any RequestBehavior) -> Bool {
        ObjectIdentifier(type(of: behavior)) == ObjectIdentifier(target)
    }

    /// Overrides take effect when the chain is built; run directly, an override just passes the request on.
    public func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        try await next(request)
    }
}

extension RequestBehavior where Self == BehaviorOverride {
    /// Removes every client-wide behavior of `type` for this call.
    ///
    /// - Parameter type: The behavior type to remove, such as `RetryBehavior.self`.
    public static func without(_ type: any RequestBehavior.Type) -> BehaviorOverride {
        BehaviorOverride(type, action: .remove)
    }

    /// Replaces every client-wide behavior of `type` with `replacement` for this call, in the same place.
    ///
    /// - Parameters:
    ///   - type: The behavior type to replace.
    ///   - replacement: The behavior to run in its place.
    public static func replacing(_ type: any RequestBehavior.Type, with replacement: any RequestBehavior)
        -> BehaviorOverride
    {
        BehaviorOverride(type, action: .replace(with: replacement))
    }
}
