import NetworkingHTTP

/// A behavior that does nothing: the default per-request behavior, and a neutral element for composition.
public struct EmptyBehavior: RequestBehavior {
    /// Creates the empty behavior.
    public init() {}
}

extension RequestBehavior where Self == EmptyBehavior {
    /// A behavior that does nothing.
    public static var empty: EmptyBehavior { EmptyBehavior() }
}
