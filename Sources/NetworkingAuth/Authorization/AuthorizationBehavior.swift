import Foundation
import NetworkingHTTP
import NetworkingCore

/// Puts a credential from a ``TokenStore`` on every attempt: `Authorization: Bearer <token>` by default.
///
/// - **Every attempt:** the token is read in ``modify(request:context:)``, which runs on each pass, so when the
///   behavior sits inside a retry a token refreshed between attempts is used by the next one. Put it inside retry:
///   `CombinedBehavior([.activityCounter(...), .logging(), .retry(), .authorization(...)])`.
/// - **Set, never appended:** the header is replaced, so retries and a second authorization behavior never
///   produce two values.
/// - **Sensitive:** the header is marked sensitive (`HTTPFields/subscript(sensitive:)`), whatever its name: it
///   is redacted in logs and error texts and removed when a redirect leaves the origin.
/// - **No token, no header:** when the store returns `nil` or an empty string the request goes out unchanged.
/// - **The request wins:** when the `NetworkRequest` sets the scheme's header itself (say, a log-in call with
///   its own Basic credential), the behavior leaves it alone, like `additionalHeaders`.
/// - **Errors:** an error thrown by the store fails the call with `NetworkError` of kind
///   `behavior("AuthorizationBehavior")` whose `underlyingError` is the store's error. Nothing is sent.
/// - **Bad tokens:** a token containing CR, LF or other control characters is refused as it is written (kind
///   `invalidRequest`), before any I/O: it can never split a header, and the request never goes out without it.
///
/// Defaults: scheme ``AuthorizationScheme/bearer``. State: none of its own; the injected ``TokenStore``
/// (``InMemoryTokenStore`` or ``ClosureTokenStore``, or your own).
public struct AuthorizationBehavior: RequestBehavior {
    /// `BehaviorPlacement/credentials`: each attempt carries the current token.
    public var placement: BehaviorPlacement { .credentials }

    /// Which header to set and how to format the token.
    public let scheme: AuthorizationScheme
    /// Where the token comes from.
    public let store: any TokenStore

    /// Creates the behavior.
    ///
    /// - Parameters:
    ///   - scheme: Which header and format; ``AuthorizationScheme/bearer`` by default.
    ///   - store: Where the token is read on every attempt.
    public init(_ scheme: AuthorizationScheme = .bearer, store: any TokenStore) {
        self.scheme = scheme
        self.store = store
    }

    /// Reads the token and sets the header, unless the request set the header itself or there is no token.
    ///
    /// - Parameters:
    ///   - request: The request as the outer behaviors left it.
    ///   - context: The call's context; its `explicitHeaderNames` tell whether the request set the header.
    /// - Returns: The request with the header set (replacing any previous value), or unchanged.
    /// - Throws: The store's error.
    public func modify(request: HTTPRequest, context: RequestContext) async throws -> HTTPRequest {
        var request = request
        try await rewrite(&request, context: context)
        return request
    }

    /// Sets the header as ``modify(request:context:)`` does, then calls `next`: what the default hooks do, without
    /// their empty calls.
    ///
    /// - Parameters:
    ///   - request: The request so far.
    ///   - context: The call's context.
    ///   - next: The rest of the chain.
    /// - Returns: What `next` returned.
    /// - Throws: What the token store or `next` threw.
    public func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        try await next(try await modify(request: request, context: context))
    }
}

extension AuthorizationBehavior: RequestRewritingBehavior {
    /// Sets the header in place: what ``modify(request:context:)`` does to a copy, and what the chain runs when this
    /// behavior shares a level with other rewriters.
    package func rewrite(_ request: inout HTTPRequest, context: RequestContext) async throws {
        guard !context.explicitHeaderNames.contains(scheme.headerName.canonicalName) else { return }
        guard let token = try await store.token(), !token.isEmpty else { return }
        request.headerFields[sensitive: scheme.headerName] = scheme.headerValue(for: token)
    }
}

extension RequestBehavior where Self == AuthorizationBehavior {
    /// Sets a header from `store` on every attempt: `.authorization(.bearer, store: tokens)`.
    ///
    /// - Parameters:
    ///   - scheme: Which header and format; `AuthorizationScheme/bearer` by default.
    ///   - store: Where the token is read on every attempt.
    /// - Returns: The behavior.
    public static func authorization(_ scheme: AuthorizationScheme = .bearer, store: any TokenStore)
        -> AuthorizationBehavior
    {
        AuthorizationBehavior(scheme, store: store)
    }

    /// Sets a header from a closure called on every attempt: `.authorization(.bearer) { try await session.token() }`.
    ///
    /// - Parameters:
    ///   - scheme: Which header and format; `AuthorizationScheme/bearer` by default.
    ///   - token: Returns the current token, or `nil` for none; an error it throws fails the call.
    /// - Returns: The behavior.
    public static func authorization(
        _ scheme: AuthorizationScheme = .bearer, token: @escaping @Sendable () async throws -> String?
    ) -> AuthorizationBehavior {
        AuthorizationBehavior(scheme, store: ClosureTokenStore(token))
    }

    /// Sends fixed Basic credentials (RFC 7617) on every attempt.
    ///
    /// A `user` containing a colon cannot be sent: every call then fails with `NetworkError` of kind
    /// `behavior("AuthorizationBehavior")` whose underlying error is `AuthorizationScheme/InvalidCredential`.
    /// - Parameters:
    ///   - user: The user id, without a colon.
    ///   - password: The password.
    /// - Returns: The behavior.
    public static func basicAuthorization(user: String, password: String) -> AuthorizationBehavior {
        AuthorizationBehavior(
            .basic, store: ClosureTokenStore { try AuthorizationScheme.basicCredential(user: user, password: password) }
        )
    }
}
