import NetworkingCore

/// How a ``TokenRefreshBehavior`` sends and refreshes the credential (`TokenRefreshBehavior.Configuration` before
/// 1.0): one settings value per behavior, as every other behavior has.
public struct TokenRefreshSettings: Sendable, Hashable {
    /// Which header carries the credential, and how: ``AuthorizationScheme/bearer`` (`Authorization: Bearer
    /// <token>`) by default; ``AuthorizationScheme/custom(header:prefix:)`` for anything else.
    public var scheme: AuthorizationScheme = .bearer
    /// The status that means "credential rejected". Default: 401, as RFC 9110 defines it.
    public var rejectionStatus: Int = 401
    /// A credential expiring within this time is refreshed before use. Default: 30 s, to cover clock skew
    /// and the time a request takes.
    public var leeway: Duration = .seconds(30)
    /// The most refreshes allowed within ``window``. Default: 3, enough for genuine expiries, small enough to
    /// stop a server that rejects every fresh credential.
    public var maximumRefreshes: Int = 3
    /// The window of the loop guard. Default: 60 s.
    public var window: Duration = .seconds(60)

    /// Creates the default settings.
    public init() {}
}
