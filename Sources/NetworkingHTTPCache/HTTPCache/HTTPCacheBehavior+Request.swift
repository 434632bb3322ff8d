import Foundation
import NetworkingHTTP
import NetworkingCore

/// The request's own `Cache-Control` (RFC 9111 §5.2.1): `min-fresh`, `max-stale` and `only-if-cached`; `max-age`
/// and `no-cache` are read where freshness is decided, `no-store` where the store is.
extension HTTPCacheBehavior {
    /// Whether a fresh response with `lifetime` and `age` stays fresh as long as the request's `min-fresh` asks
    /// (§5.2.1.3: "still fresh for at least the specified number of seconds").
    static func isFreshEnough(lifetime: Int64, age: Int64, for request: CacheControl) -> Bool {
        guard let minFresh = request.minFresh else { return true }
        return lifetime - age >= minFresh
    }

    /// The stored response served stale because the request's `max-stale` accepts it (§5.2.1.2, §4.2.4), or `nil`:
    /// not when it is fresh, staler than `max-stale`, older than the request's `max-age`, when the request asks for
    /// `min-fresh` or `no-cache`, or when the response forbids serving it stale (`no-cache`, `must-revalidate`; in
    /// a shared cache `s-maxage` and `proxy-revalidate`).
    func servingMaxStale(_ stale: Stale, request: HTTPRequest, control: CacheControl, call: Call) -> (
        HTTPResponse, HTTPResponse.Body
    )? {
        guard let maxStale = control.maxStale, stale.staleness >= 0, stale.staleness <= maxStale,
            control.minFresh == nil, !control.noCache, control.maxAge.map({ stale.age <= $0 }) ?? true,
            !(stale.control.noCache || stale.control.mustRevalidate
                || (call.shared && (stale.control.sharedMaxAge != nil || stale.control.proxyRevalidate)))
        else { return nil }
        emit(.servedStale, call, "max-stale: stale for \(stale.staleness) s, the request accepts \(maxStale) s")
        var entry = stale.entry
        entry.headerFields["Age"] = String(stale.age)
        return served(entry, request: request, status: "hit; detail=max-stale")
    }

    /// The `504` that `only-if-cached` asks for when no stored response may answer (§5.2.1.7), made as the client
    /// makes any answer: thrown as an unacceptable status, with an ``OnlyIfCachedMiss`` behind it, which is a
    /// `PolicyRejection`, so nothing retries it (nothing was sent; asking again gets the same answer); returned when
    /// the call accepts a `504`.
    func onlyIfCachedMiss(_ request: HTTPRequest, context: RequestContext, call: Call, reason: String) throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        emit(.miss, call, "only-if-cached: \(reason); answered 504 without sending")
        var fields = HTTPFields()
        fields.append(HTTPField(name: "Cache-Status", value: "\(Self.cacheName); detail=only-if-cached"))
        fields[.contentLength] = "0"
        let head = HTTPResponse(status: .init(code: 504), headerFields: fields, url: request.url)
        if context.attempt?.acceptable.contains(504) == true { return (head, .data(Data())) }
        throw NetworkError(
            .unacceptableStatus(504), requestName: call.name,
            message: "the request says only-if-cached and \(reason): 504 from the cache, nothing sent",
            builtRequest: context.attempt?.builtRequest, response: head, body: Data(),
            underlyingError: OnlyIfCachedMiss(reason: reason))
    }
}
