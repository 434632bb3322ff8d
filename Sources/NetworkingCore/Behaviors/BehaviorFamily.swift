import NetworkingHTTP

/// A group of placements whose behaviors do one job, for overrides that must reach all of them:
/// `.without(.credentials)` removes the authorization header and the token refresh alike, where
/// `.without(AuthorizationBehavior.self)` would leave a `TokenRefreshBehavior` sending its token.
///
/// A family is a set of ``BehaviorPlacement``s: it reaches every behavior placed there, built-in or your own.
public struct BehaviorFamily: Sendable, Hashable, CustomStringConvertible {
    private let name: String
    /// The placements the family covers.
    public let placements: Set<BehaviorPlacement>

    /// Behaviors that send a credential: everything at ``BehaviorPlacement/credentials`` (`AuthorizationBehavior`,
    /// `TokenRefreshBehavior`).
    public static let credentials = BehaviorFamily(name: "credentials", placements: [.credentials])
    /// Behaviors that send a call again: everything at ``BehaviorPlacement/retry`` and
    /// ``BehaviorPlacement/hedging`` (`RetryBehavior`, `HedgingBehavior`). Removing retries removes hedging too.
    public static let retries = BehaviorFamily(name: "retries", placements: [.retry, .hedging])

    /// A family of your own.
    ///
    /// - Parameters:
    ///   - name: The family's name, for messages.
    ///   - placements: The placements it covers.
    public init(name: String, placements: Set<BehaviorPlacement>) {
        self.name = name
        self.placements = placements
    }

    /// The family's name.
    public var description: String { name }

    /// Whether `behavior` belongs to this family.
    package func contains(_ behavior: any RequestBehavior) -> Bool {
        placements.contains(behavior.placement)
    }
}
