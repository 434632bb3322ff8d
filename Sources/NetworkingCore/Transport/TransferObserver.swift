import NetworkingHTTP

/// Watches the attempts of the calls it is installed on: the core's one extension point for metrics, progress and
/// anything else that needs to see attempts as they happen, without a field on `HTTPRequest`.
///
/// A behavior installs an observer for the rest of its call with ``TransferObservation/observe(with:_:)``; for each
/// attempt the client asks it for an ``AttemptObserver`` and reports to that: the head, the transport's facts, the
/// end. A transport reports bytes sent and engine facts to ``TransferObservation/attempt``.
///
/// ```swift
/// struct CountAttempts: RequestBehavior {
///     let counter: LockedCounter
///     var placement: BehaviorPlacement { .metrics }
///     func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws
///         -> (HTTPResponse, HTTPBody)
///     {
///         try await TransferObservation.observe(with: counter) { try await next(request) }
///     }
/// }
/// ```
public protocol TransferObserver: Sendable {
    /// An attempt of the call starts, with the request as the transport gets it.
    ///
    /// - Parameter request: The request as sent.
    /// - Returns: What observes this attempt, or `nil` to ignore it.
    func attemptStarted(_ request: HTTPRequest) -> (any AttemptObserver)?
}

/// Observes one attempt. Every method has an empty default; the client calls ``attemptEnded(_:)`` exactly once.
public protocol AttemptObserver: Sendable {
    /// The response head the attempt answers with arrived: after redirects the client follows, the final one (a
    /// transport may report each hop's head too, as the libcurl transport does).
    func responseHeadReceived(_ response: HTTPResponse)
    /// The transport sent `total` bytes of the request body so far (cumulative, a new count per redirect hop).
    func bytesSent(_ total: Int64, of expected: Int64?)
    /// The transport's own facts about the attempt: timings, connection reuse, protocol.
    func transportReported(_ metrics: TransportMetrics)
    /// The attempt ended: with a response and the body bytes the caller received, or a failure.
    func attemptEnded(_ ending: AttemptEnding)
}

extension AttemptObserver {
    /// Does nothing.
    public func responseHeadReceived(_ response: HTTPResponse) {}
    /// Does nothing.
    public func bytesSent(_ total: Int64, of expected: Int64?) {}
    /// Does nothing.
    public func transportReported(_ metrics: TransportMetrics) {}
    /// Does nothing.
    public func attemptEnded(_ ending: AttemptEnding) {}
}

/// How an attempt ended, for an ``AttemptObserver``.
public enum AttemptEnding: Sendable {
    /// A response arrived with `status`; the caller received `bodyBytes` of its body (for a stream, by the time it
    /// ended, or was cancelled when `cancelled`).
    case response(status: Int, bodyBytes: Int64, cancelled: Bool)
    /// The attempt failed: a ``NetworkError``, or `CancellationError`.
    case failure(any Error)
}

/// What a transport knows about an attempt beyond the response: each part `nil` when the transport cannot tell.
public struct TransportMetrics: Sendable, Hashable {
    /// Time spent resolving the host name.
    public var nameLookup: Duration?
    /// Time to the TCP connection, from the start.
    public var connect: Duration?
    /// Time to the end of the TLS handshake, from the start.
    public var secureConnection: Duration?
    /// Time to the first byte of the response, from the start.
    public var firstByte: Duration?
    /// Whether the attempt reused a pooled connection.
    public var reusedConnection: Bool?
    /// The protocol used, such as `HTTP/1.1` or `HTTP/2`.
    public var httpVersion: String?
    /// Request body bytes sent, as the transport counted them.
    public var bytesSent: Int64?
    /// Response body bytes received on the wire (before decompression), as the transport counted them.
    public var bytesReceived: Int64?

    /// Creates metrics; every part defaults to unknown.
    public init(
        nameLookup: Duration? = nil, connect: Duration? = nil, secureConnection: Duration? = nil,
        firstByte: Duration? = nil, reusedConnection: Bool? = nil, httpVersion: String? = nil,
        bytesSent: Int64? = nil, bytesReceived: Int64? = nil
    ) {
        self.nameLookup = nameLookup
        self.connect = connect
        self.secureConnection = secureConnection
        self.firstByte = firstByte
        self.reusedConnection = reusedConnection
        self.httpVersion = httpVersion
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
    }
}
