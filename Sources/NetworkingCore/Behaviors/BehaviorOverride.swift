import Foundation
import NetworkingHTTP

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
/// nested `CombinedBehavior`s too), or every member of a ``BehaviorFamily`` (`.without(.credentials)` removes
/// authorization and token refresh alike, `.without(.retries)` retry and hedging). A replacement takes the place
/// of the first match, so the chain order stays as the client defined it, and the other matches are removed; when
/// no client-wide behavior matches, the replacement runs where the override stands in the per-request behavior.
/// `.without` of an absent type does nothing. An override placed in the client-wide behavior is a mistake that
/// would do nothing: building the client stops the program with ``BehaviorConflictError`` (`.overrideOutsideCall`),
/// saying so (``NetworkClient/init(validating:)`` throws it).
public struct BehaviorOverride: RequestBehavior {
    /// What the override does.
    public enum Action: Sendable {
        /// Remove every client-wide behavior of the type.
        case remove
        /// Put this behavior in place of the first matching client-wide behavior, removing the other matches.
        case replace(with: any RequestBehavior)
    }

    /// The type of behavior acted on; `nil` when the override names a ``family`` instead.
    public let target: (any RequestBehavior.Type)?
    /// The family of behaviors acted on; `nil` when the override names a ``target`` type instead.
    public let family: BehaviorFamily?
    /// Remove or replace.
    public let action: Action

    /// Creates an override of `target`.
    ///
    /// - Parameters:
    ///   - target: The type of client-wide behavior to act on.
    ///   - action: Remove it, or replace it.
    public init(_ target: any RequestBehavior.Type, action: Action) {
        self.target = target
        self.family = nil
        self.action = action
    }

    /// Creates an override of every member of `family`.
    ///
    /// - Parameters:
    ///   - family: The family of client-wide behaviors to act on.
    ///   - action: Remove them, or replace them.
    public init(_ family: BehaviorFamily, action: Action) {
        self.target = nil
        self.family = family
        self.action = action
    }

    /// Whether `behavior` is of the target type or a member of the family.
    package func matches(_ behavior: any RequestBehavior) -> Bool {
        if let family { return family.contains(behavior) }
        return target.map { ObjectIdentifier(type(of: behavior)) == ObjectIdentifier($0) } ?? false
    }

    /// What the override names, for messages: the type's name, or the family's.
    package var subject: String {
        if let family { return "the \(family) family" }
        return target.map { String(describing: $0) } ?? "nothing"
    }

    /// Overrides take effect when the chain is built; run directly, an override just passes the request on.
    public func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        try await next(request)
    }
}

extension RequestBehavior where Self == BehaviorOverride {
    /// Removes every client-wide member of `family` for this call: `.without(.credentials)` on a login call.
    ///
    /// - Parameter family: The family to remove.
    public static func without(_ family: BehaviorFamily) -> BehaviorOverride {
        BehaviorOverride(family, action: .remove)
    }

    /// Removes every client-wide behavior of `type` for this call.
    ///
    /// - Parameter type: The behavior type to remove, such as `RetryBehavior.self`.
    public static func without(_ type: any RequestBehavior.Type) -> BehaviorOverride {
        BehaviorOverride(type, action: .remove)
    }

    /// Replaces the client-wide behavior of `type` with `replacement` for this call, in the same place (with several
    /// of that type, the first is replaced and the others removed).
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
