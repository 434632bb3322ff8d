import Foundation
import NetworkingHTTP
import NetworkingCore

extension HTTPCacheBehavior {
    /// A stored response that is no longer fresh, and whether it may still be served (RFC 9111 §4.2.4).
    struct Stale: Sendable {
        /// The stored response.
        let entry: HTTPCacheEntry
        /// Its current age, in seconds.
        let age: Int64
        /// How long it has been stale: its age minus its lifetime, in seconds.
        let staleness: Int64
        /// Whether any directive forbids serving it stale.
        let allowed: Bool
        /// The stored response's `Cache-Control`.
        let control: CacheControl
        /// The request's `stale-if-error` window (RFC 5861 §4: a request may ask for it too), in seconds.
        var requestStaleIfError: Int64? = nil
    }

    /// The statuses after which `stale-if-error` serves the stale response (RFC 5861 §4).
    static let errorStatuses: Set<Int> = [500, 502, 503, 504]

    /// Whether a stale response may be served at all (RFC 9111 §4.2.4): not when the response says `no-cache` or
    /// `must-revalidate` (or, in a shared cache, has `s-maxage` or `proxy-revalidate`), nor when the request says
    /// `no-cache` or sets a
    /// `max-age` of its own.
    static func mayServeStale(response: CacheControl, request: CacheControl, shared: Bool) -> Bool {
        !(response.noCache || response.mustRevalidate
            || (shared && (response.sharedMaxAge != nil || response.proxyRevalidate)) || request.noCache
            || request.maxAge != nil)
    }

    /// `stale-while-revalidate` (RFC 5861 §3): answers with the stale response at once and revalidates it in the
    /// background through the same chain, one revalidation per key at a time.
    func serveWhileRevalidating(_ request: HTTPRequest, stale: Stale, call: Call, next: @escaping NextHandler) -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        let key = call.key
        let started = backgroundRevalidations.withLock { $0.insert(key).inserted }
        if started {
            let entry = stale.entry
            Task {
                do {
                    if let conditional = CacheValidation.conditionalRequest(request, for: entry) {
                        _ = try await revalidate(
                            request, conditional: conditional, entry: entry, call: call, next: next)
                    } else {
                        _ = try await fetch(request, call: call, next: next)
                    }
                    backgroundRevalidations.withLock { _ = $0.remove(key) }
                } catch {
                    backgroundRevalidations.withLock { _ = $0.remove(key) }
                    emit(.revalidationFailed, call, "the background revalidation failed: \(error)")
                }
            }
        }
        let doing = started ? "revalidating in the background" : "a revalidation is already under way"
        emit(.servedStale, call, "stale-while-revalidate: stale for \(stale.staleness) s, \(doing)")
        return staleResponse(stale, request: request, status: "hit; detail=stale-while-revalidate")
    }

    /// `stale-if-error` (RFC 5861 §4) after a thrown error: the stale response when its window allows, else the
    /// error. Cancellation is always rethrown.
    func servingStale(_ stale: Stale?, after error: any Error, request: HTTPRequest, call: Call) throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        guard !(error is CancellationError), !Task.isCancelled, Self.isServerFailure(error), let stale,
            Self.staleIfErrorAllows(stale)
        else { throw error }
        emit(.servedStale, call, "stale-if-error: the request failed (\(error))")
        return staleResponse(stale, request: request, status: "fwd=stale; detail=stale-if-error")
    }

    /// `stale-if-error` (RFC 5861 §4) after a `500`, `502`, `503` or `504`: the stale response when its window
    /// allows, else `nil` (the response is handled as any other).
    func servingStale(_ stale: Stale?, after response: HTTPResponse, request: HTTPRequest, call: Call) -> (
        HTTPResponse, HTTPResponse.Body
    )? {
        guard Self.errorStatuses.contains(response.status.code), let stale, Self.staleIfErrorAllows(stale) else {
            return nil
        }
        emit(.servedStale, call, "stale-if-error: the server answered \(response.status.code)")
        return staleResponse(stale, request: request, status: "fwd=stale; detail=stale-if-error")
    }

    /// Whether `error` is one RFC 5861 §4 covers: the server unreachable or failing (a transport error, an attempt's
    /// time limit, a `500`, `502`, `503` or `504`); a `404` or `401` is an answer, never replaced by a stale one.
    private static func isServerFailure(_ error: any Error) -> Bool {
        switch error {
        case is TransportError: return true
        case let error as NetworkError:
            switch error.kind {
            case .transport, .timedOut(.attempt): return true
            case .unacceptableStatus(let code): return errorStatuses.contains(code)
            default: return false
            }
        default: return false
        }
    }

    /// Whether the response's `stale-if-error` window, or the request's, still covers the stale response.
    private static func staleIfErrorAllows(_ stale: Stale) -> Bool {
        let windows = [stale.control.staleIfError, stale.requestStaleIfError].compactMap { $0 }
        guard stale.allowed, let window = windows.max() else { return false }
        return stale.staleness < window
    }

    private func staleResponse(_ stale: Stale, request: HTTPRequest, status: String) -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        var entry = stale.entry
        entry.headerFields["Age"] = String(stale.age)
        return served(entry, request: request, status: status)
    }
}
