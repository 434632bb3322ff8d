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
        public var acceptableStatusCodes: Set<Int>
        /// The time limit of each attempt, enforced by the client whatever the transport does.
        public var timeout: Duration
        /// The time limit of a whole call, retries and back-off included. `nil` for none.
        public var deadline: Duration?
        /// The clock for timeouts and deadlines.
        public var clock: any NetworkClock

        /// Default per-attempt time limit: 60 seconds, as `URLRequest`'s default, but enforced as a total.
        public static let defaultTimeout: Duration = .seconds(60)
        /// Default whole-call time limit: 5 minutes, so retries with back-off can never run unbounded.
        public static let defaultDeadline: Duration = .seconds(300)
        /// Default acceptable statuses: 200-299.
        public static let defaultAcceptableStatusCodes: Set<Int> = Set(200..<300)

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - baseURL: The URL request paths are appended to.
        ///   - transport: How requests travel; the shared default transport by default.
        ///   - behavior: The client-wide behavior, for example `CombinedBehavior([...])`.
        ///   - encoder: Encodes JSON bodies.
        ///   - decoder: Decodes JSON responses.
        ///   - acceptableStatusCodes: Statuses treated as success; 200-299 by default.
        ///   - timeout: The limit of each attempt.
        ///   - deadline: The limit of a whole call, retries included.
        ///   - clock: The clock for time limits.
        public init(
            baseURL: URL?,
            transport: (any HTTPTransport)? = nil,
            behavior: any RequestBehavior = EmptyBehavior(),
            encoder: JSONEncoder = JSONEncoder(),
            decoder: JSONDecoder = JSONDecoder(),
            acceptableStatusCodes: Set<Int> = Configuration.defaultAcceptableStatusCodes,
            timeout: Duration = Configuration.defaultTimeout,
            deadline: Duration? = Configuration.defaultDeadline,
            clock: any NetworkClock = SystemClock()
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
        }
    }
}
