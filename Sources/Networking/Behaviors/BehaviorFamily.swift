/// A group of built-in behaviors that do one job, for overrides that must reach all of them:
/// `.without(.credentials)` removes the authorization header and the token refresh alike, where
/// `.without(AuthorizationBehavior.self)` would leave a `TokenRefreshBehavior` sending its token.
public struct BehaviorFamily: Sendable, Hashable, CustomStringConvertible {
    private let name: String

    /// Behaviors that send a credential: ``AuthorizationBehavior`` and ``TokenRefreshBehavior``.
    public static let credentials = BehaviorFamily(name: "credentials")
    /// Behaviors that send a call again: ``RetryBehavior``.
    public static let retries = BehaviorFamily(name: "retries")

    /// The family's name.
    public var description: String { name }

    /// Whether `behavior` belongs to this family.
    func contains(_ behavior: any RequestBehavior) -> Bool {
        switch self {
        case .credentials: behavior is AuthorizationBehavior || behavior is TokenRefreshBehavior
        case .retries: behavior is RetryBehavior
        default: false
        }
    }
}
