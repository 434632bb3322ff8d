import Foundation
import NetworkingHTTP

/// The redirect rules of one call, as a value: which 3xx answers are followed, with what method, body and headers,
/// and which are refused. The client applies its decisions, hop by hop; every rule is tested here as a table.
///
/// Rules, in the order they are checked:
/// 1. Only 301, 302, 303, 307 and 308 are followed. Other 3xx answers (300, 304, 305, 306), and a redirect whose
///    `Location` is missing, empty or cannot be parsed, are returned to the caller as they are.
/// 2. The target must be an `http` or `https` URL with a host; `https` must never lead to `http`.
/// 3. At most `limit` redirects per call; the one after fails with ``TransportError/Code/tooManyRedirects``.
/// 4. Method and body (RFC 9110 §15.4): 303 turns every method but `HEAD` into a bodiless `GET`; 301 and 302 turn
///    only `POST` into `GET`; every other method keeps its method and its body, as with 307 and 308. When the
///    method becomes `GET`, the headers describing the body go with it (`Content-Type`, `Content-Length`,
///    `Content-Encoding`, `Content-Language`, `Content-Location`, `Transfer-Encoding`).
/// 5. Credentials: once a hop leaves the original origin (scheme, host or port), `Authorization`, `Cookie`,
///    `Proxy-Authorization` and every field marked sensitive are removed, on that hop and every later one. Hops
///    within the original origin keep them.
package struct RedirectState: Sendable {
    /// What to do with a response.
    package enum Decision: Sendable {
        /// Send this request next.
        case follow(HTTPRequest)
        /// Fail the call.
        case refuse(TransportError.Code, String)
        /// Not a redirect to follow: the response is the answer.
        case deliver
    }

    /// Scheme, host and port.
    package struct Origin: Sendable, Equatable {
        let scheme: String
        let host: String
        let port: Int?

        package init(_ url: URL) {
            scheme = HTTPToken.lowercasedASCII(url.scheme ?? "")
            host = HTTPToken.lowercasedASCII(url.host ?? "")
            port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
        }
    }

    /// Headers that never follow a redirect to another origin, whether marked sensitive or not.
    package static let credentialHeaderNames: Set<String> = ["authorization", "cookie", "proxy-authorization"]

    /// Headers that describe a body, dropped with it when a redirect turns the request into a `GET`.
    package static let bodyHeaderNames: Set<String> = [
        "content-type", "content-length", "content-encoding", "content-language", "content-location",
        "transfer-encoding",
    ]

    /// The statuses that are redirects to follow.
    package static let followedStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// The most redirects followed in one call.
    package let limit: Int
    /// Whether redirects are followed at all; when not, every 3xx is delivered as the response.
    package let follows: Bool
    /// The first request: its URL is parsed only when a redirect is followed, so a call that is not redirected
    /// never pays for it.
    private let first: HTTPRequest
    /// The origin of the first request.
    package var origin: Origin? { first.url.map(Origin.init) }
    /// How many redirects were followed so far.
    package private(set) var count = 0
    /// Whether a hop has left the original origin: from then on, credentials stay off.
    package private(set) var leftOrigin = false
    /// Whether the first request's body can be sent again; a redirect that keeps a body that cannot (a one-time
    /// `HTTPBody`) is refused.
    package let bodyIsReplayable: Bool

    /// Starts the rules for a call whose first request is `request`.
    ///
    /// - Parameters:
    ///   - request: The first request.
    ///   - limit: The most redirects to follow.
    ///   - follows: Whether to follow redirects at all; `false` delivers every 3xx as the response.
    ///   - bodyIsReplayable: Whether the body can be sent again; by default, what `request`'s body says.
    package init(for request: HTTPRequest, limit: Int, follows: Bool = true, bodyIsReplayable: Bool? = nil) {
        self.first = request
        self.limit = limit
        self.follows = follows
        self.bodyIsReplayable = bodyIsReplayable ?? request.body.isReplayable
    }

    /// Decides what follows `status` with `location`, answered to `current`.
    ///
    /// - Parameters:
    ///   - status: The response status.
    ///   - location: The raw `Location` header, if any.
    ///   - current: The request that got this answer.
    /// - Returns: The next request, a refusal, or ``Decision/deliver``.
    package mutating func decide(status: Int, location: String?, current: HTTPRequest) -> Decision {
        guard follows, Self.followedStatuses.contains(status) else { return .deliver }
        guard let location, !location.isEmpty, let currentURL = current.url,
            let target = URL(string: location, relativeTo: currentURL)?.absoluteURL
        else { return .deliver }
        let scheme = HTTPToken.lowercasedASCII(target.scheme ?? "")
        guard scheme == "http" || scheme == "https", let host = target.host, !host.isEmpty else {
            return .refuse(.redirectRefused, "a redirect to a non-HTTP URL (scheme \"\(scheme)\") was refused")
        }
        if current.scheme == "https" && scheme == "http" {
            return .refuse(.redirectRefused, "a redirect from https to http was refused")
        }
        count += 1
        guard count <= limit else {
            return .refuse(.tooManyRedirects, "more than \(limit) redirect\(limit == 1 ? "" : "s")")
        }
        var next = current
        next.url = target
        if let reason = next.invalidReason, current.invalidReason == nil {
            return .refuse(.redirectRefused, "the redirect target cannot be requested: \(reason)")
        }
        if (status == 303 && current.method != .head) || ([301, 302].contains(status) && current.method == .post) {
            next.method = .get
            next.body = .empty
            next.headerFields.removeAll { Self.bodyHeaderNames.contains($0.name.canonicalName) }
        }
        if !bodyIsReplayable && !next.body.isEmpty {
            return .refuse(
                .redirectRefused,
                "a \(status) redirect would send the one-time body again; make it restartable"
                    + " (HTTPBody(length:restart:)) to follow it")
        }
        if Origin(target) != origin { leftOrigin = true }
        if leftOrigin {
            next.headerFields.removeAll {
                $0.isSensitive || Self.credentialHeaderNames.contains($0.name.canonicalName)
            }
        }
        return .follow(next)
    }
}
