import Foundation
import NetworkingHTTP
import NetworkingCore

/// Stores the cookies servers set and sends them back where RFC 6265 allows, following redirects itself so that
/// every hop's `Set-Cookie` is kept and every hop carries only its own cookies.
///
/// ```swift
/// let jar = InMemoryCookieJar()
/// let client = NetworkClient(
///     baseURL: URL(string: "https://shop.example.com")!,
///     behavior: CombinedBehavior([.retry(), .cookies(jar: jar)])
/// )
/// ```
///
/// - **Matching** (``Cookie/matches(_:)``): a cookie set without `Domain` goes back to its host only; with
///   `Domain=example.com`, to that domain and its subdomains; never to a bare top-level domain, which is refused
///   when set. `Path` limits it to a path and below; `Secure` to https. `Expires` and `Max-Age` (which wins) count
///   on the injected clock.
/// - **Redirects**: the behavior sends each request with redirects off (`HTTPRequest/followsRedirects` `false`),
///   stores the `Set-Cookie` of every 3xx, and follows it by the transport's own rules (method and body rewriting,
///   credential stripping on another origin, at most ``CookieSettings/maximumRedirects`` hops, `tooManyRedirects`
///   after). Each hop is
///   one pass through the behaviors inside this one, with its own attempt time limit, and carries the cookies of its
///   own URL only. A request that does not follow redirects gets the 3xx, its cookies stored.
/// - **Malformed** `Set-Cookie` lines and dates are ignored, reported to `debugLog`; nothing fails or crashes.
/// - A `Cookie` header set on the request is kept; the jar's cookies are added after it.
///
/// Defaults: ``InMemoryCookieJar``; the call's clock; ``CookieSettings/default`` (10 redirects, the default
/// transport's limit).
public struct CookieBehavior: RequestBehavior {
    /// `BehaviorPlacement/cookies`: after the headers are final; outside the cache and coalescing, which see its `Cookie`.
    public var placement: BehaviorPlacement { .cookies }

    /// Where cookies are kept.
    public let jar: any CookieJar
    /// The clock whose `NetworkClock/date()` expiry is measured on.
    public let clock: (any NetworkClock)?
    /// How redirects are followed.
    public let settings: CookieSettings
    private let debugLog: @Sendable (String) -> Void

    /// Creates the behavior.
    ///
    /// - Parameters:
    ///   - settings: How redirects are followed; ``CookieSettings/default`` by default.
    ///   - jar: Where cookies are kept; a new ``InMemoryCookieJar`` by default.
    ///   - clock: The clock of expiry; the call's clock (the client's) by default.
    ///   - debugLog: Told about each ignored `Set-Cookie` line (never its value); nothing by default.
    public init(
        _ settings: CookieSettings = .default, jar: any CookieJar = InMemoryCookieJar(),
        clock: (any NetworkClock)? = nil, debugLog: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.settings = settings
        self.jar = jar
        self.clock = clock
        self.debugLog = debugLog
    }

    /// Sends the request and every redirect hop with the jar's cookies, storing what each response sets.
    ///
    /// - Parameters:
    ///   - request: The first request.
    ///   - context: The call's context.
    ///   - next: The rest of the chain, called once per hop.
    /// - Returns: The final response.
    /// - Throws: What `next` threw for the last hop; `NetworkError` of kind `transport(.tooManyRedirects)` or
    ///   `transport(.redirectRefused)` when a redirect cannot be followed.
    public func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        let clock = self.clock ?? context.clock
        var redirects = RedirectState(
            for: request, limit: settings.maximumRedirects, follows: request.followsRedirects ?? true)
        var current = request
        while true {
            var sent = current
            sent.followsRedirects = false
            if let url = current.url {
                let header = jar.cookies(for: url, at: clock.date()).map { "\($0.name)=\($0.value)" }
                    .joined(separator: "; ")
                if !header.isEmpty {
                    sent.headerFields[.cookie] = sent.headerFields[.cookie].map { $0 + "; " + header } ?? header
                }
            }
            let response: HTTPResponse
            let outcome: Result<(HTTPResponse, HTTPResponse.Body), any Error>
            do {
                let answer = try await next(sent)
                response = answer.0
                outcome = .success(answer)
            } catch let error as NetworkError {
                guard let failed = error.response else { throw error }
                response = failed
                outcome = .failure(error)
            }
            if let url = current.url { store(response, from: url, now: clock.date()) }
            switch redirects.decide(
                status: response.status.code, location: response.headerFields[.location], current: current)
            {
            case .deliver:
                return try outcome.get()
            case .follow(let hop):
                current = hop
            case .refuse(let code, let message):
                throw NetworkError(
                    .transport(code), requestName: context.requestName, message: message, sentRequest: sent,
                    response: response)
            }
        }
    }

    /// Each `Set-Cookie` field is one cookie, commas included (RFC 6265 §5.2): every transport delivers them apart
    /// (the URL session transport splits what Foundation joined before the behaviors see it).
    private func store(_ response: HTTPResponse, from url: URL, now: Date) {
        let lines = response.headerFields[values: .setCookie]
        guard !lines.isEmpty else { return }
        var cookies: [Cookie] = []
        for line in lines {
            guard let parsed = SetCookie.parse(line) else {
                debugLog("ignored a malformed Set-Cookie from \(url.host ?? "?")")
                continue
            }
            guard let cookie = Cookie(parsed, from: url, at: now) else {
                debugLog(
                    "ignored Set-Cookie \(parsed.name) from \(url.host ?? "?"): its domain or Secure flag is not allowed there"
                )
                continue
            }
            cookies.append(cookie)
        }
        if !cookies.isEmpty { jar.save(cookies, at: now) }
    }
}

extension RequestBehavior where Self == CookieBehavior {
    /// Keeps cookies in `jar` and sends them back as RFC 6265 allows, across redirects too.
    ///
    /// - Parameters:
    ///   - settings: How redirects are followed; `CookieSettings/default` by default.
    ///   - jar: Where cookies are kept; a new `InMemoryCookieJar` by default.
    ///   - clock: The clock of expiry; the call's clock (the client's) by default.
    /// - Returns: The behavior.
    public static func cookies(
        _ settings: CookieSettings = .default, jar: any CookieJar = InMemoryCookieJar(),
        clock: (any NetworkClock)? = nil
    ) -> CookieBehavior {
        CookieBehavior(settings, jar: jar, clock: clock)
    }
}
