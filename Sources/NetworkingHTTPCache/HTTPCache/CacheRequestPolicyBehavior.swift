import NetworkingHTTP
import NetworkingCore

/// Sends one call's ``CacheRequestPolicy`` to the HTTP cache: it writes the policy's `Cache-Control` into the
/// request (replacing one already there), before the cache reads it. A per-request behavior:
///
/// ```swift
/// let fresh = try await client.send(NetworkRequest<[Item]>(path: "/items"), behavior: .cachePolicy(.reload))
/// ```
///
/// It runs at `BehaviorPlacement/modification`, outside the cache (`BehaviorPlacement/cache`), wherever it is
/// given; the directives also go to the server when the call gets there, as RFC 9111 §5.2.1 expects of a request's
/// `Cache-Control` (with `only-if-cached`, the HTTP cache sends nothing).
///
/// A policy needs an HTTP cache in the call's chain (`.httpCache()`, client-wide or for the call): without one, the
/// call fails before anything is sent, with `NetworkError` of kind `behavior("CacheRequestPolicyBehavior")` carrying
/// ``MissingHTTPCacheError``, since `.offline` would otherwise reach the network. To send `Cache-Control` to a server
/// or a transport's own cache, set the header itself (``CacheRequestPolicy/headerValue``).
public struct CacheRequestPolicyBehavior: RequestBehavior {
    /// The policy written into each request.
    public let policy: CacheRequestPolicy

    /// `BehaviorPlacement/modification`: before the cache.
    public var placement: BehaviorPlacement { .modification }

    /// Creates the behavior.
    ///
    /// - Parameter policy: The directives to send.
    public init(policy: CacheRequestPolicy) {
        self.policy = policy
    }

    /// Writes the policy's `Cache-Control` and passes the request on, or refuses the call when its chain holds no
    /// HTTP cache.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The call's context.
    ///   - next: The rest of the chain.
    /// - Returns: What `next` returned.
    /// - Throws: ``MissingHTTPCacheError`` when no HTTP cache is in the call's chain (nothing is sent); what `next`
    ///   threw.
    public func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        // A context a test built alone does not know the chain (`nil`): only a client's call is refused.
        if context.chainHasCache == false { throw MissingHTTPCacheError(policy: policy) }
        let value = policy.headerValue
        guard !value.isEmpty else { return try await next(request) }
        var request = request
        request.headerFields["Cache-Control"] = value
        return try await next(request)
    }
}

extension RequestBehavior where Self == CacheRequestPolicyBehavior {
    /// Sends `policy` to the HTTP cache with this call (see `CacheRequestPolicy`).
    ///
    /// - Parameter policy: The directives, such as `CacheRequestPolicy/offline`.
    /// - Returns: The behavior.
    public static func cachePolicy(_ policy: CacheRequestPolicy) -> CacheRequestPolicyBehavior {
        CacheRequestPolicyBehavior(policy: policy)
    }
}
