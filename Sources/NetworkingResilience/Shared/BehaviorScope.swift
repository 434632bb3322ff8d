import Foundation
import NetworkingHTTP
import NetworkingCore

/// How a stateful behavior (circuit breaker, limiters) splits its state: one for the whole client, one per host, or
/// one per key of your own.
///
/// ```swift
/// let perHost = BehaviorScope.host                       // api.example.com and cdn.example.com apart
/// let perEndpoint = BehaviorScope.custom { request, context in
///     context.metadata[EndpointName.self] ?? request.path
/// }
/// ```
public struct BehaviorScope: Sendable {
    private let makeKey: @Sendable (HTTPRequest, RequestContext) -> String

    /// Creates a scope from a function that names the partition a call belongs to.
    ///
    /// - Parameter key: The partition's name for a request and its context; calls with the same name share state.
    public init(_ key: @escaping @Sendable (HTTPRequest, RequestContext) -> String) {
        self.makeKey = key
    }

    /// One state for every call of the client.
    public static var client: BehaviorScope { BehaviorScope { _, _ in "" } }

    /// One state per origin host and port, such as `api.example.com:443` (the scheme's default port when absent).
    public static var host: BehaviorScope {
        BehaviorScope { request, _ in Self.hostKey(of: request) }
    }

    /// One state per key that `key` returns.
    ///
    /// - Parameter key: The partition's name for a request and its context.
    /// - Returns: The scope.
    public static func custom(_ key: @escaping @Sendable (HTTPRequest, RequestContext) -> String) -> BehaviorScope {
        BehaviorScope(key)
    }

    /// The partition `request` belongs to.
    ///
    /// - Parameters:
    ///   - request: The request as it reaches the behavior.
    ///   - context: The call's context.
    /// - Returns: The partition's name.
    public func key(for request: HTTPRequest, context: RequestContext) -> String {
        makeKey(request, context)
    }

    /// `host:port`, lower-cased, with the scheme's default port when the authority has none.
    static func hostKey(of request: HTTPRequest) -> String {
        let authority = HTTPToken.lowercasedASCII(request.authority)
        let hasPort: Bool
        if authority.hasPrefix("[") {
            hasPort = authority.range(of: "]:") != nil
        } else {
            hasPort = authority.contains(":")
        }
        if hasPort { return authority }
        return authority + (request.scheme == "http" ? ":80" : ":443")
    }
}
