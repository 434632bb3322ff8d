import Foundation
import NetworkingHTTP
import NetworkingCore

/// Sends identical `GET` and `HEAD` requests in flight at the same time once: every caller waits for the one
/// transport call and gets its outcome, decoded as its own `NetworkRequest` asks.
///
/// ```swift
/// let client = NetworkClient(
///     baseURL: URL(string: "https://api.example.com")!,
///     behavior: CombinedBehavior([.logging(), .retry(), .authorization(.bearer, store: tokens), .coalescing()])
/// )
/// async let a = client.send(NetworkRequest<Profile>(path: "/me"))
/// async let b = client.send(NetworkRequest<Profile>(path: "/me"))   // shares a's transport call
/// ```
///
/// - **Identical** means the same ``CoalescingKey``: method, full URL and every header field, `Authorization`
///   included, so two users never share an answer. A JSON-decoded request sends `Accept: application/json` and a
///   `Data` or `String` one none, so those differ unless both name the same `Accept`. Requests with a body and other methods pass through untouched.
/// - **Place it inside** the behaviors that set headers (authorization, token refresh, header modifiers), so the key
///   sees the headers that are sent: outside them it would see none and could share one user's answer with another.
/// - **Outcomes are shared whole**: the response and body, or the same `NetworkError` (the one the first caller's
///   chain threw, naming its request), reach every waiter.
/// - **Cancellation is per caller.** A cancelled caller gets `CancellationError` at once; the shared call goes on
///   while anyone still waits; when the last waiter leaves, the shared call is cancelled. A waiter's wait ends at its
///   own attempt timeout or deadline (`NetworkError/Kind/timedOut(_:)`) like any other.
/// - **Only in-flight calls are shared**: the call is forgotten the moment it ends; this is not a cache.
/// - **Sharing:** copies of one behavior value share its table; give several clients the same value (or table) to
///   coalesce across them.
///
/// Defaults: ``CoalescingSettings/default`` (ignores `traceparent`, `tracestate`, `X-Request-ID`,
/// `X-Correlation-ID`); state ``InMemoryCoalescingTable``.
public struct CoalescingBehavior: RequestBehavior {
    /// `BehaviorPlacement/coalescing`: innermost: the key is the request as sent, credentials included.
    public var placement: BehaviorPlacement { .coalescing }

    /// The calls in flight.
    public let table: any CoalescingTable
    /// What the keys leave out.
    public let settings: CoalescingSettings

    /// Creates the behavior.
    ///
    /// - Parameters:
    ///   - settings: What the keys leave out; ``CoalescingSettings/default`` by default.
    ///   - table: Where the calls in flight are kept; a new ``InMemoryCoalescingTable`` by default.
    public init(_ settings: CoalescingSettings = .default, table: any CoalescingTable = InMemoryCoalescingTable()) {
        self.settings = settings
        self.table = table
    }

    /// Joins the call in flight for the request's key, or starts it, and waits for its outcome.
    ///
    /// - Parameters:
    ///   - request: The request; without a key it goes straight to `next`.
    ///   - context: The call's context: its time limits bound the wait.
    ///   - next: The rest of the chain; called by the first caller of a key only.
    /// - Returns: The shared response and body.
    /// - Throws: The shared call's error; `CancellationError` when this caller is cancelled; `NetworkError` of kind
    ///   `timedOut` when this caller's time limit passes first.
    public func intercept(_ request: HTTPRequest, context: RequestContext, next: @escaping NextHandler) async throws
        -> (
            HTTPResponse, HTTPResponse.Body
        )
    {
        // A streamed body has one reader: it cannot be shared, so stream and download calls are never coalesced.
        guard context.responseForm == .buffered,
            let key = CoalescingKey(request, ignoring: settings.ignoredHeaderNames)
        else {
            return try await next(request)
        }
        try Task.checkCancellation()
        let id = UUID()
        let call = join(key, as: id) { try await next(request) }
        return try await context.withTimeLimits(waitingFor: "the shared call of \(key)") {
            try await call.wait(id)
        }
    }

    /// The open call for `key` with `id` among its waiters, started with `operation` when new.
    private func join(
        _ key: CoalescingKey, as id: UUID,
        operation: @escaping @Sendable () async throws -> (HTTPResponse, HTTPResponse.Body)
    ) -> InFlightCall {
        let table = table
        while true {
            let call = table.call(for: key) { InFlightCall(key: key) { table.remove($0) } }
            if call.join(id, operation: operation) { return call }
            // Closed between lookup and join: it is removing itself; make sure, and start a new one.
            table.remove(call)
        }
    }
}

extension RequestBehavior where Self == CoalescingBehavior {
    /// Shares one transport call between identical `GET` and `HEAD` requests in flight; place it inside the
    /// behaviors that set headers.
    ///
    /// - Parameters:
    ///   - settings: What the keys leave out; `CoalescingSettings/default` by default.
    ///   - table: Where the calls in flight are kept; a new `InMemoryCoalescingTable` by default.
    /// - Returns: The behavior.
    public static func coalescing(
        _ settings: CoalescingSettings = .default, table: any CoalescingTable = InMemoryCoalescingTable()
    ) -> CoalescingBehavior {
        CoalescingBehavior(settings, table: table)
    }
}
