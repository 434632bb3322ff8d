import Foundation
import NetworkingHTTP

extension NetworkClient {
    /// Everything a ``NetworkClient`` is built from. All of it is fixed for the client's lifetime.
    public struct Configuration: Sendable {
        /// The URL that request paths are appended to. `nil` means every request must use an absolute URL.
        public var baseURL: URL?
        /// How requests travel. With `import Networking`, a configuration made without one gets the platform's
        /// default transport.
        public var transport: any HTTPTransport
        /// The client-wide behavior; it wraps the per-request behavior of every call.
        public var behavior: any RequestBehavior
        /// Encodes ``RequestBody/json(_:)`` bodies.
        public var encoder: JSONEncoder
        /// Decodes JSON responses.
        public var decoder: JSONDecoder
        /// Status codes treated as success. Any other status throws ``NetworkError/Kind/unacceptableStatus(_:)``.
        /// Default: 200-299.
        public var acceptableStatusCodes: Set<Int>
        /// The time limit of each attempt, enforced by the client whatever the transport does. Default: 60 seconds,
        /// as `URLRequest`'s default, but enforced as a total rather than an idle timer.
        public var timeout: Duration
        /// The time limit of a whole call, retries and back-off included; `nil` for none. Default: 5 minutes, so
        /// retries with back-off can never run unbounded.
        public var deadline: Duration?
        /// The clock of every time limit of the client and of every behavior that waits or measures without a clock
        /// of its own (retry back-off, the circuit breaker, the rate limiter, hedging, token refresh, logging,
        /// metrics). Default: ``SystemClock``.
        public var clock: any NetworkClock
        /// The largest body read into memory (`send`, `response(for:)`); a larger `Content-Length` fails before the
        /// body is read, and a body that grows past it fails as soon as it does, with kind
        /// `transport(responseTooLarge)`. Answers that have no body (to `HEAD`, 204 and 304) are never refused for
        /// the length they announce. Streams and downloads are not limited by it. Default: 32 MiB, far above API
        /// payloads, far below memory trouble.
        public var maximumResponseBodySize: Int
        /// The most redirects followed in one attempt. Default: 10 (OkHttp and Apple's URL loading allow 20,
        /// AsyncHTTPClient 5). The client follows them itself, whatever the transport, with the rules of RFC 9110
        /// (see ``followsRedirects``).
        public var maximumRedirects: Int
        /// Whether redirects are followed when the request does not say (``NetworkRequest/followsRedirects``).
        /// Default: `true`. Followed: 301, 302, 303, 307, 308, to http(s) only and never from https to http; a
        /// `POST` becomes a `GET` on 301 and 302, every method but `HEAD` on 303, and then loses its body; every other
        /// method keeps its method and its body. `Authorization`, `Cookie`, `Proxy-Authorization` and every field
        /// marked sensitive are removed once a redirect leaves the request's origin. With `false`, every 3xx comes
        /// back as the answer, with its body.
        public var followsRedirects: Bool
        /// Header names whose values are secrets in every request of this client, in any letter case, such as
        /// `X-API-Key` set by a request or a behavior of your own. Their fields are marked sensitive whoever writes
        /// them: redacted in logs and error texts, and removed when a redirect leaves the request's origin.
        /// `Authorization`, `Proxy-Authorization`, `Cookie` and the headers of the credential behaviors are
        /// sensitive without being named. Default: none.
        public var sensitiveHeaderNames: Set<String>

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - baseURL: The URL request paths are appended to.
        ///   - transport: How requests travel.
        ///   - behavior: The client-wide behavior, for example `CombinedBehavior([...])`.
        ///   - encoder: Encodes JSON bodies.
        ///   - decoder: Decodes JSON responses.
        ///   - acceptableStatusCodes: Statuses treated as success; 200-299 by default.
        ///   - timeout: The limit of each attempt; 60 seconds by default.
        ///   - deadline: The limit of a whole call, retries included; 5 minutes by default.
        ///   - clock: The clock for time limits and for behaviors without a clock of their own.
        ///   - sensitiveHeaderNames: Headers whose values are secrets; none by default.
        ///   - maximumResponseBodySize: The largest body read into memory; 32 MiB by default.
        ///   - maximumRedirects: The most redirects followed; 10 by default.
        ///   - followsRedirects: Whether redirects are followed; `true` by default.
        public init(
            baseURL: URL?,
            transport: any HTTPTransport,
            behavior: any RequestBehavior = EmptyBehavior(),
            encoder: JSONEncoder = JSONEncoder(),
            decoder: JSONDecoder = JSONDecoder(),
            acceptableStatusCodes: Set<Int> = Set(200..<300),
            timeout: Duration = .seconds(60),
            deadline: Duration? = .seconds(300),
            clock: any NetworkClock = SystemClock(),
            sensitiveHeaderNames: Set<String> = [],
            maximumResponseBodySize: Int = 32 * 1024 * 1024,
            maximumRedirects: Int = 10,
            followsRedirects: Bool = true
        ) {
            self.maximumResponseBodySize = maximumResponseBodySize
            self.maximumRedirects = maximumRedirects
            self.followsRedirects = followsRedirects
            self.baseURL = baseURL
            self.transport = transport
            self.behavior = behavior
            self.encoder = encoder
            self.decoder = decoder
            self.acceptableStatusCodes = acceptableStatusCodes
            self.timeout = timeout
            self.deadline = deadline
            self.clock = clock
            self.sensitiveHeaderNames = sensitiveHeaderNames
        }
    }
}
