import Foundation
import NetworkingHTTP

/// What every behavior in one call's chain knows about that call, besides the request itself.
///
/// The same context is handed to every behavior and every attempt of one call.
public struct RequestContext: Sendable {
    /// The request's ``NetworkRequest/name``, such as `GET /users/42`, for logs and errors.
    public var requestName: String
    /// A value unique to this call and shared by all its attempts: a correlation id, or an idempotency key.
    public var callID: UUID
    /// Lower-cased names of headers set on the ``NetworkRequest`` itself. `additionalHeaders` never replace them.
    public var explicitHeaderNames: Set<String>
    /// When the whole call must be over, if it has a deadline. Behaviors that wait (back-off) check it.
    public var deadline: CallDeadline?
    /// The time limit of one attempt. A behavior that waits on something of its own before sending (a credential
    /// refresh, a queue) is bounded by it, through ``withTimeLimits(waitingFor:_:)``.
    public var attemptTimeout: Duration
    /// The clock the call's time limits run on.
    public var clock: any NetworkClock
    /// What the caller set on the request for behaviors to read (``NetworkRequest/metadata``).
    public var metadata: RequestMetadata
    /// How the caller receives the response; a streamed body (``ResponseForm/stream``, ``ResponseForm/download``)
    /// has one reader and arrives after the head, so a behavior must not keep or share it.
    public var responseForm: ResponseForm
    /// The call's attempt, which records the request as it was sent (after every behavior): `nil` in a context a
    /// test built.
    package var attempt: Attempt?
    /// Whether the call's chain holds a behavior at `BehaviorPlacement/cache` (an HTTP cache), so that a behavior
    /// asking something of the cache can refuse a call no cache would see: `nil` in a context a test built.
    package var chainHasCache: Bool?

    /// The request as it was sent for the answer the call has now (after every behavior and redirect), so that a
    /// behavior outside the one that added a credential can still hide it; `nil` before an answer, or in a context a
    /// test built.
    package var requestAsSent: HTTPRequest? { attempt?.lastSentRequest }

    /// Creates a context; the client builds one per call. Tests of a single behavior build their own.
    ///
    /// - Parameters:
    ///   - requestName: The request's name for logs and errors.
    ///   - callID: A value unique to the call.
    ///   - explicitHeaderNames: Names of headers the request set itself.
    ///   - deadline: When the whole call must be over.
    ///   - attemptTimeout: The limit of one attempt; 60 seconds by default, the client's default.
    ///   - clock: The clock of the time limits; the system clock by default.
    ///   - metadata: What the caller set on the request.
    ///   - responseForm: How the caller receives the response; buffered by default.
    public init(
        requestName: String = "request", callID: UUID = UUID(), explicitHeaderNames: Set<String> = [],
        deadline: CallDeadline? = nil, attemptTimeout: Duration = .seconds(60), clock: any NetworkClock = SystemClock(),
        metadata: RequestMetadata = RequestMetadata(), responseForm: ResponseForm = .buffered
    ) {
        self.responseForm = responseForm
        self.requestName = requestName
        self.callID = callID
        self.explicitHeaderNames = Set(explicitHeaderNames.map { HTTPToken.lowercasedASCII($0) })
        self.deadline = deadline
        self.attemptTimeout = attemptTimeout
        self.clock = clock
        self.metadata = metadata
    }

    /// The context as the client builds it, with names already lower-cased.
    package init(
        requestName: String, callID: UUID, lowercasedHeaderNames: Set<String>, deadline: CallDeadline?,
        attemptTimeout: Duration, clock: any NetworkClock, metadata: RequestMetadata, responseForm: ResponseForm,
        attempt: Attempt?
    ) {
        self.attempt = attempt
        self.responseForm = responseForm
        self.requestName = requestName
        self.callID = callID
        self.explicitHeaderNames = lowercasedHeaderNames
        self.deadline = deadline
        self.attemptTimeout = attemptTimeout
        self.clock = clock
        self.metadata = metadata
    }

    /// Runs `operation`, a wait of a behavior's own, and ends it with ``NetworkError`` of kind
    /// ``NetworkError/Kind/timedOut(_:)`` when the attempt timeout or the call's deadline comes first.
    ///
    /// ```swift
    /// let token = try await context.withTimeLimits(waitingFor: "the credential refresh") {
    ///     try await refresher.freshToken()
    /// }
    /// ```
    /// The operation is cancelled when the limit passes, and a cancelled call throws `CancellationError` at once;
    /// the operation must answer cancellation promptly.
    ///
    /// - Parameters:
    ///   - what: What is waited for, for the error message, such as `the credential refresh`.
    ///   - operation: The wait.
    /// - Returns: What `operation` returned.
    /// - Throws: ``NetworkError`` of kind `timedOut(.attempt)` or `timedOut(.call)`; `CancellationError`; what
    ///   `operation` threw.
    public func withTimeLimits<T: Sendable>(
        waitingFor what: String, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let remaining = deadline?.remaining()
        let byDeadline = remaining.map { $0 < attemptTimeout } ?? false
        let limit = byDeadline ? max(remaining ?? .zero, .zero) : attemptTimeout
        let name = requestName
        let deadlineLimit = deadline?.limit
        let attemptLimit = attemptTimeout
        return try await withTimeLimit(
            limit, clock: clock,
            onTimeout: {
                NetworkError(
                    .timedOut(byDeadline ? .call : .attempt), requestName: name,
                    message: byDeadline
                        ? "the call's deadline of \(deadlineLimit ?? limit) passed while waiting for \(what)"
                        : "\(what) took longer than the attempt time limit of \(attemptLimit)")
            }, operation)
    }
}
