import Foundation

extension NetworkClient {
    /// Everything a ``NetworkClient`` is built from. All of it is fixed for the client's lifetime.
    public struct Configuration: Sendable {
        /// The URL that request paths are appended to. `nil` means every request must use an absolute URL.
        public var baseURL: URL?
        /// How requests travel. Defaults to the shared default transport (Foundation's URL loading, hardened).
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
        /// The clock for timeouts and deadlines. Default: ``SystemClock``.
        public var clock: any NetworkClock
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
        ///   - transport: How requests travel; the shared default transport by default.
        ///   - behavior: The client-wide behavior, for example `CombinedBehavior([...])`.
        ///   - encoder: Encodes JSON bodies.
        ///   - decoder: Decodes JSON responses.
        ///   - acceptableStatusCodes: Statuses treated as success; 200-299 by default.
        ///   - timeout: The limit of each attempt; 60 seconds by default.
        ///   - deadline: The limit of a whole call, retries included; 5 minutes by default.
        ///   - clock: The clock for time limits.
        ///   - sensitiveHeaderNames: Headers whose values are secrets; none by default.
        public init(
            baseURL: URL?,
            transport: (any HTTPTransport)? = nil,
            behavior: any RequestBehavior = EmptyBehavior(),
            encoder: JSONEncoder = JSONEncoder(),
            decoder: JSONDecoder = JSONDecoder(),
            acceptableStatusCodes: Set<Int> = Set(200..<300),
            timeout: Duration = .seconds(60),
            deadline: Duration? = .seconds(300),
            clock: any NetworkClock = SystemClock(),
            sensitiveHeaderNames: Set<String> = []
        ) {
            self.baseURL = baseURL
            self.transport = transport ?? makeDefaultTransport()
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
