import Foundation
import NetworkingHTTP
import NetworkingCore

/// Sends a refreshable credential, and refreshes it once for everyone when it expires or the server answers 401.
///
/// ```swift
/// let auth = TokenRefreshBehavior(
///     initial: AccessCredential(token: savedToken, expiresAt: savedExpiry),
///     refresher: ClosureTokenRefresher { _ in try await AuthAPI.refresh() }
/// )
/// let client = NetworkClient(baseURL: api, behavior: CombinedBehavior([.retry(), auth]))
/// ```
///
/// - **Single flight.** However many calls meet a 401 or an expired credential at once, the refresher runs once;
///   every waiting call is replayed with the new credential, or receives the same
///   ``TokenRefreshError/refreshFailed(_:)``.
/// - **Versioned.** A call rejected with a credential that another call has already replaced uses the newer one
///   without refreshing again.
/// - **Replay once.** A call is replayed at most once; a 401 on the replay is returned to the caller.
/// - **Loop guard.** At most ``TokenRefreshSettings/maximumRefreshes`` refreshes per
///   ``TokenRefreshSettings/window``; beyond that calls fail with
///   ``TokenRefreshError/refreshLimitReached(limit:window:)`` without asking the refresher.
/// - **Cancellation.** Cancelling a waiting call never cancels the refresh the others wait for.
/// - **Time limits.** Waiting for a refresh is part of the attempt: it ends with `NetworkError` of kind
///   `timedOut(.call)` when the call's deadline passes first, or `timedOut(.attempt)` when the attempt timeout
///   does. The refresh itself goes on for the calls still waiting; once no call waits for it any more, it is
///   abandoned (it still stores its credential if it finishes while no newer refresh runs and none has stored one
///   since), and the next call that needs a credential, a retry of a call that gave up included, starts a new
///   refresh rather than wait on one that may never return. Each refresh counts toward the loop guard.
/// - **Sensitive.** The header is marked sensitive: redacted in logs and error texts, and removed when a redirect
///   leaves the origin.
///
/// Place it inside `.retry()` so every attempt carries the current credential. It sets the header itself: use it
/// instead of `AuthorizationBehavior`, not with it.
public final class TokenRefreshBehavior: RequestBehavior {
    /// `BehaviorPlacement/credentials`: each attempt carries the current credential.
    public var placement: BehaviorPlacement { .credentials }

    /// The settings in force: header, scheme and limits.
    public let settings: TokenRefreshSettings
    private let coordinator: CredentialCoordinator

    /// Creates the behavior.
    ///
    /// - Parameters:
    ///   - initial: The credential to start with; `nil` makes the first call refresh.
    ///   - refresher: Obtains new credentials.
    ///   - clock: The clock for expiry and the loop guard; `nil` (the default) uses the call's clock.
    ///   - settings: Header, scheme and limits.
    public init(
        initial: AccessCredential?,
        refresher: any TokenRefresher,
        clock: (any NetworkClock)? = nil,
        settings: TokenRefreshSettings = TokenRefreshSettings()
    ) {
        self.settings = settings
        self.coordinator = CredentialCoordinator(
            initial: initial, refresher: refresher, clock: clock, leeway: settings.leeway,
            maximumRefreshes: settings.maximumRefreshes, window: settings.window)
    }

    /// The credential in use now.
    public var credential: AccessCredential? { coordinator.current }

    /// How many calls wait for the refresh in flight; for tests that must act once every call has joined.
    package var waitingCallCount: Int { coordinator.waitingCount }

    /// Sends the request with a usable credential; on a rejection, refreshes (or joins a refresh) and replays once.
    ///
    /// - Parameters:
    ///   - request: The request as the outer behaviors left it.
    ///   - context: The call's context; its time limits bound any wait for a refresh.
    ///   - next: The rest of the chain.
    /// - Returns: The response of the first attempt, or of the replay after a refresh.
    /// - Throws: What `next` threw; ``TokenRefreshError`` (inside a `behavior` error); `timedOut` while waiting.
    public func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        let coordinator = coordinator
        let clock = context.clock
        let (usable, rejected) = coordinator.usableNow(fallback: clock)
        let (credential, version) =
            if let usable { usable } else {
                try await context.withTimeLimits(waitingFor: "the credential refresh") {
                    try await coordinator.refreshed(after: rejected, fallback: clock)
                }
            }
        do {
            return try await next(authorized(request, with: credential))
        } catch let error as NetworkError where error.kind == .unacceptableStatus(settings.rejectionStatus) {
            let (fresh, _) = try await context.withTimeLimits(waitingFor: "the credential refresh") {
                try await coordinator.refreshed(after: version, fallback: clock)
            }
            return try await next(authorized(request, with: fresh))
        }
    }

    private func authorized(_ request: HTTPRequest, with credential: AccessCredential) -> HTTPRequest {
        var request = request
        request.headerFields[sensitive: settings.scheme.headerName] =
            settings.scheme.headerValue(for: credential.token)
        return request
    }
}

extension RequestBehavior where Self == TokenRefreshBehavior {
    /// A behavior that sends a refreshable credential and refreshes it once for all calls on 401 or expiry.
    ///
    /// - Parameters:
    ///   - initial: The credential to start with.
    ///   - clock: The clock for expiry and the loop guard; `nil` (the default) uses the call's clock.
    ///   - refresh: Obtains a new credential from the one being replaced.
    public static func tokenRefresh(
        initial: AccessCredential?,
        clock: (any NetworkClock)? = nil,
        refresh: @escaping @Sendable (AccessCredential?) async throws -> AccessCredential
    ) -> TokenRefreshBehavior {
        TokenRefreshBehavior(initial: initial, refresher: ClosureTokenRefresher(refresh), clock: clock)
    }
}
