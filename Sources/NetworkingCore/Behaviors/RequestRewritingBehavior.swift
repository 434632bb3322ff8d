import NetworkingHTTP

/// A built-in behavior whose whole work is to rewrite the request on its way out: its ``RequestBehavior/intercept(_:context:next:)``
/// sends on what ``rewrite(_:context:)`` made of the request, once, and returns what came back untouched (the
/// authorization, header and request-modifier behaviors).
///
/// The chain runs several of these in a row as one level (``BehaviorChain``): one closure and one async frame for
/// the run instead of three frames and a closure per behavior, and each writes the request in place, so the header
/// fields are copied once for the run rather than once per behavior. What the caller sees is the same: the
/// rewrites in the chain's order, an error a rewrite throws attributed to its behavior.
package protocol RequestRewritingBehavior: RequestBehavior {
    /// Rewrites `request` as ``RequestBehavior/intercept(_:context:next:)`` does before it calls `next`.
    func rewrite(_ request: inout HTTPRequest, context: RequestContext) async throws
}
