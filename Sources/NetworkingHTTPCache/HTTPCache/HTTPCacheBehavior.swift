import Foundation
import NetworkingHTTP
import NetworkingCore

/// An HTTP cache (RFC 9111), private by default or shared (``Mode``): stores cacheable `GET` responses with their
/// validators, answers fresh ones with no I/O, and revalidates stale ones with `If-None-Match` /
/// `If-Modified-Since`.
///
/// ```swift
/// let client = NetworkClient(
///     configuration: .init(
///         baseURL: URL(string: "https://api.example.com")!,
///         behavior: CombinedBehavior([.retry(), .authorization(.bearer, store: tokens), .httpCache()])))
/// ```
///
/// **One user's answer never reaches another.** The cache runs next to the wire (`BehaviorPlacement/cache`),
/// after every behavior that adds a credential, so it decides on the request as sent. In the default ``Mode/private``
/// mode, responses to requests with credentials are stored and served apart per credential (a digest of every
/// sensitive field is part of the key); in ``Mode/shared`` mode (a server serving many users), such responses are
/// stored only when the server allows sharing them (`public`, `must-revalidate`, `s-maxage`), `private` responses
/// are never stored, and `s-maxage` is the lifetime. See ``Mode`` for the whole table.
///
/// **Honoured** in responses: `Cache-Control` `max-age`, `no-store`, `no-cache` (a field list is read as a bare
/// `no-cache`), `private`, `public`, `must-revalidate` and `s-maxage` as ``Mode`` says, `must-understand`,
/// `immutable` (no revalidation while fresh, even for a request's `max-age`; RFC 8246), `stale-while-revalidate`
/// (the stale response is served and revalidated once in the background, through the same chain) and
/// `stale-if-error` (a failed or `500`/`502`/`503`/`504` revalidation serves the stale response; RFC 5861);
/// `Expires`, `Date`, `Age`, `Last-Modified`, `ETag`, `Content-Location` and `Vary` (several variants per URL). In
/// requests: `Cache-Control` `no-store` (the response is not stored), `no-cache` (a stored response is
/// revalidated first), `max-age` (a stored response older than that is revalidated), `min-fresh` (one that will
/// not stay fresh that long is not served: revalidated or fetched), `max-stale` (a stale response within it is
/// served, unless the response forbids it), `only-if-cached` (a stored response that may answer, or a `504` thrown
/// with an ``OnlyIfCachedMiss`` behind it, never the network; also for a method or a conditional request the store
/// never answers) and `stale-if-error` (as the response's). A request's `no-store`
/// keeps the cache out of the call: nothing is stored, and nothing stored answers it. ``CacheRequestPolicy``
/// writes these per request. Freshness and age follow
/// RFC 9111 §4.2; without explicit freshness a response with `Last-Modified` is fresh for 10% of the time between
/// its `Last-Modified` and its `Date`, at most a day; otherwise it is stored only to be revalidated. Hop-by-hop
/// fields and the proxy's own (`Proxy-Authenticate`, `Proxy-Authentication-Info`, `Proxy-Authorization`) are
/// neither stored nor served.
///
/// **Not honoured:** `Pragma`; `206` responses (passed through, never stored). A `HEAD` is never answered from
/// the store nor stored; its `200` updates the stored `GET` response it describes, or removes it when its
/// validators or length say it describes another (RFC 9111 §4.3.5). `proxy-revalidate` is read in ``Mode/shared``
/// mode only, where it forbids serving the response stale. A `304` is taken for the stored response when its `ETag`
/// matches the one sent by the weak comparison (nginx's gzip filter answers `W/"x"` with a strong `"x"`). The
/// Conformance article lists every rule with its test, and the deliberate departures.
///
/// **Rules:** `GET` responses the client accepts (those `next` returns) are stored when RFC 9111 §3 allows (a
/// status the cache does not know, such as `299`, with explicit freshness or `public`), and a
/// `POST` response with explicit freshness whose `Content-Location` is the request URL is stored for later `GET`s.
/// A request that sets a conditional or `Range` header itself passes through untouched, and so does a request
/// asking to switch protocols (an `Upgrade` field: a WebSocket's opening handshake), which nothing stored answers. A `POST`, `PUT`, `PATCH`,
/// `DELETE` or other unsafe method answered with a 2xx or 3xx removes the stored response for its URL and for
/// same-origin `Location` and `Content-Location`. Malformed `Cache-Control`, `Expires`, `Date` and `Age` values
/// are ignored (reported as ``HTTPCacheEvent/Kind/ignoredHeader``), never a crash.
///
/// **Telling a cached response apart:** a response served from the store carries a `Cache-Status` field
/// (RFC 9211): `Networking; hit`, `Networking; fwd=stale; fwd-status=304` after a revalidation,
/// `Networking; hit; detail=stale-while-revalidate`, `Networking; hit; detail=max-stale` and
/// `Networking; fwd=stale; detail=stale-if-error` for a stale response (`Networking; detail=only-if-cached` on the
/// `504` of an `only-if-cached` miss), and a hit carries its current `Age`; ``outcome(of:)`` reads the `Cache-Status`. The observer receives an
/// ``HTTPCacheEvent`` for every decision.
///
/// **Where in the chain:** always next to the wire, inside retry (a failed revalidation is retried like any
/// request), credentials, cookies and every behavior of your own, whatever order they were given in. Time comes
/// from the injected clock, or the call's clock when none is given.
public struct HTTPCacheBehavior: RequestBehavior {
    /// `BehaviorPlacement/cache`: next to the wire: the key is the request as sent, credentials included.
    public var placement: BehaviorPlacement { .cache }

    /// `Upgrade`, whose presence keeps the cache out of a call.
    static let upgrade = HTTPField.Name("Upgrade")

    /// The `Cache-Status` member name this cache writes (RFC 9211).
    public static let cacheName = "Networking"

    /// Where responses are stored.
    public let store: any HTTPCacheStore
    /// Whose cache it is: ``Mode/private`` (one user) or ``Mode/shared`` (many users).
    public let mode: Mode
    let clock: (any NetworkClock)?
    let onEvent: @Sendable (HTTPCacheEvent) -> Void
    /// The keys being revalidated in the background (`stale-while-revalidate`), so each has one revalidation at a
    /// time; shared by the copies of this behavior.
    let backgroundRevalidations = LockedBox<Set<String>>([])

    /// Creates the behavior.
    ///
    /// - Parameters:
    ///   - store: Where responses are stored; a new ``InMemoryHTTPCacheStore`` (10 MiB) by default.
    ///   - mode: ``Mode/private`` (the default: one user's cache) or ``Mode/shared`` (a server's, for many users).
    ///   - clock: The clock for ages and dates; `nil` (the default) uses the call's clock.
    ///   - onEvent: Called synchronously for each decision; keep it quick. Does nothing by default.
    public init(
        store: any HTTPCacheStore = InMemoryHTTPCacheStore(), mode: Mode = .private, clock: (any NetworkClock)? = nil,
        onEvent: @escaping @Sendable (HTTPCacheEvent) -> Void = { _ in }
    ) {
        self.store = store
        self.mode = mode
        self.clock = clock
        self.onEvent = onEvent
    }

    /// Answers from the store, revalidates, or sends and stores; invalidates on unsafe methods.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The call's context.
    ///   - next: The rest of the chain.
    /// - Returns: The stored response, the revalidated one, or what `next` returned.
    /// - Throws: What `next` threw, unchanged.
    public func intercept(_ request: HTTPRequest, context: RequestContext, next: @escaping NextHandler) async throws
        -> (
            HTTPResponse, HTTPResponse.Body
        )
    {
        // A request to switch protocols (RFC 9110 §7.8: a WebSocket's handshake) asks for a connection, which no
        // stored response can give, and its answer is no response to store.
        if request.headerFields.contains(Self.upgrade) { return try await next(request) }
        let call = Call(
            key: Self.key(of: request, mode: mode), url: Self.key(of: request), name: context.requestName,
            clock: clock ?? context.clock, shared: mode == .shared)
        let requestControl = CacheControl(fields: request.headerFields)
        let answersFromStore = request.method == .get && !CacheValidation.isCallerConditional(request)
        if requestControl.onlyIfCached && !answersFromStore {
            return try onlyIfCachedMiss(
                request, context: context, call: call,
                reason: "only a GET without conditions of its own is answered from the store")
        }
        if !Self.safeMethods.contains(request.method) {
            return try await sendUnsafe(request, call: call, next: next)
        }
        if request.method == .head, !CacheValidation.isCallerConditional(request), !requestControl.noStore {
            return try await sendHead(request, call: call, next: next)
        }
        guard answersFromStore else { return try await next(request) }
        report(requestControl.problems, call)
        if requestControl.noStore {
            // §5.2.1.5: nothing of this exchange is stored; nor is the store read, as a request asking for no
            // trace expects (and as browsers do).
            if requestControl.onlyIfCached {
                return try onlyIfCachedMiss(request, context: context, call: call, reason: "it also says no-store")
            }
            emit(.miss, call, "the request says no-store: the store is neither read nor written")
            return try await next(request)
        }
        guard let stored = await store.entry(forKey: call.key) else {
            if requestControl.onlyIfCached {
                return try onlyIfCachedMiss(request, context: context, call: call, reason: "nothing is stored")
            }
            emit(.miss, call)
            return try await fetch(request, call: call, next: next)
        }
        guard var entry = Self.variant(of: stored, matching: request.headerFields) else {
            if requestControl.onlyIfCached {
                return try onlyIfCachedMiss(
                    request, context: context, call: call, reason: "no stored variant matches its Vary headers")
            }
            emit(.miss, call, "no stored variant matches this request's Vary headers")
            return try await fetch(request, call: call, next: next)
        }
        let now = call.clock.date()
        let age = CacheFreshness.currentAge(of: entry, now: now)
        let lifetime = CacheFreshness.lifetime(of: entry, shared: call.shared)
        let responseControl = CacheControl(fields: entry.headerFields)
        report(responseControl.problems, call)
        // RFC 8246: an immutable response is not revalidated while fresh, even when the request limits the age (a
        // reload); a request's no-cache (a forced reload) still revalidates.
        let withinRequestLimit =
            (responseControl.immutable && age < lifetime) || requestControl.maxAge.map { age <= $0 } ?? true
        if age < lifetime && !responseControl.noCache && !requestControl.noCache && withinRequestLimit
            && Self.isFreshEnough(lifetime: lifetime, age: age, for: requestControl)
        {
            emit(.hit, call)
            entry.headerFields["Age"] = String(age)
            return served(entry, request: request, status: "hit")
        }
        let stale = Stale(
            entry: entry, age: age, staleness: age - lifetime,
            allowed: Self.mayServeStale(response: responseControl, request: requestControl, shared: call.shared),
            control: responseControl, requestStaleIfError: requestControl.staleIfError)
        if let served = servingMaxStale(stale, request: request, control: requestControl, call: call) {
            return served
        }
        if requestControl.onlyIfCached {
            let reason =
                age < lifetime ? "the stored response is not fresh enough for it" : "the stored response is stale"
            return try onlyIfCachedMiss(request, context: context, call: call, reason: reason)
        }
        // Only a stale response is served while revalidating: one fresh but not fresh enough (min-fresh) waits.
        if stale.allowed, stale.staleness >= 0, let window = responseControl.staleWhileRevalidate,
            stale.staleness < window
        {
            return serveWhileRevalidating(request, stale: stale, call: call, next: next)
        }
        guard let conditional = CacheValidation.conditionalRequest(request, for: entry) else {
            emit(.miss, call, "the stored response is stale and has no validator")
            return try await fetch(request, call: call, next: next, stale: stale)
        }
        return try await revalidate(
            request, conditional: conditional, entry: entry, call: call, next: next, stale: stale)
    }

    /// Whether `response` came from the cache, read from its `Cache-Status` field: ``HTTPCacheEvent/Kind/hit``,
    /// ``HTTPCacheEvent/Kind/revalidated``, ``HTTPCacheEvent/Kind/servedStale``, ``HTTPCacheEvent/Kind/miss`` for
    /// the `504` of an `only-if-cached` request nothing stored could answer, or `nil` when the response came from
    /// the network.
    ///
    /// - Parameter response: A response returned by a client with this behavior.
    /// - Returns: How the cache served it, or `nil`.
    public static func outcome(of response: HTTPResponse) -> HTTPCacheEvent.Kind? {
        // RFC 9211: a list of caches, the one nearest the client last; each `name; parameter; parameter=value`.
        for member in FieldSyntax.listMembers(response.headerFields[values: "Cache-Status"]).reversed() {
            let (name, parameters) = FieldSyntax.parameters(member)
            guard FieldSyntax.equals(name, cacheName) else { continue }
            func value(_ key: String) -> Substring? { parameters.first { $0.name == key }?.value }
            if let detail = value("detail") {
                if FieldSyntax.equals(detail, "only-if-cached") { return .miss }
                if FieldSyntax.hasPrefixIgnoringCase(detail, "stale-") || FieldSyntax.equals(detail, "max-stale") {
                    return .servedStale
                }
            }
            if parameters.contains(where: { $0.name == "hit" }) { return .hit }
            if let status = value("fwd-status"), FieldSyntax.equals(status, "304") { return .revalidated }
        }
        return nil
    }

    /// The cache key: the request's URL with its query, scheme and authority lower-cased.
    static func key(of request: HTTPRequest) -> String {
        "\(request.scheme)://\(HTTPToken.lowercasedASCII(request.authority))\(request.path)"
    }

    static let safeMethods: Set<HTTPMethod> = [.get, .head, .options, .trace]

    /// What one call's decisions share.
    struct Call: Sendable {
        /// The storage key: the URL, and in a private cache a digest of the credentials.
        let key: String
        /// The URL part of the key, for events.
        let url: String
        let name: String
        let clock: any NetworkClock
        let shared: Bool
    }

    func emit(_ kind: HTTPCacheEvent.Kind, _ call: Call, _ detail: String? = nil) {
        onEvent(HTTPCacheEvent(kind, key: call.url, requestName: call.name, detail: detail))
    }

    func report(_ problems: [String], _ call: Call) {
        for problem in problems { emit(.ignoredHeader, call, "Cache-Control: \(problem)") }
    }

    /// The stored response as a response head and body, marked with `Cache-Status`.
    func served(_ entry: HTTPCacheEntry, request: HTTPRequest, status: String) -> (HTTPResponse, HTTPResponse.Body) {
        var fields = CacheStorability.withoutHopByHopFields(entry.headerFields)
        fields.append(HTTPField(name: "Cache-Status", value: "\(Self.cacheName); \(status)"))
        let head = HTTPResponse(status: .init(code: entry.status), headerFields: fields, url: entry.url ?? request.url)
        var body = HTTPBody.data(entry.body)
        body.trailerFields = entry.trailerFields
        return (head, body)
    }
}

extension RequestBehavior where Self == HTTPCacheBehavior {
    /// An HTTP cache, private by default; it always runs next to the wire.
    ///
    /// - Parameters:
    ///   - store: Where responses are stored; a new `InMemoryHTTPCacheStore` (10 MiB) by default.
    ///   - mode: `HTTPCacheBehavior/Mode/private` (the default) or `HTTPCacheBehavior/Mode/shared` (a server's).
    ///   - clock: The clock for ages and dates; `nil` (the default) uses the call's clock.
    ///   - onEvent: Called synchronously for each decision. Does nothing by default.
    /// - Returns: The behavior.
    public static func httpCache(
        store: any HTTPCacheStore = InMemoryHTTPCacheStore(), mode: HTTPCacheBehavior.Mode = .private,
        clock: (any NetworkClock)? = nil, onEvent: @escaping @Sendable (HTTPCacheEvent) -> Void = { _ in }
    ) -> HTTPCacheBehavior {
        HTTPCacheBehavior(store: store, mode: mode, clock: clock, onEvent: onEvent)
    }
}
