import Foundation

/// What every behavior in one call's chain knows about that call, besides the `URLRequest` itself.
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

    /// Creates a context; the client builds one per call. Tests of a single behavior build their own.
    ///
    /// - Parameters:
    ///   - requestName: The request's name for logs and errors.
    ///   - callID: A value unique to the call.
    ///   - explicitHeaderNames: Names of headers the request set itself.
    ///   - deadline: When the whole call must be over.
    public init(
        requestName: String = "request", callID: UUID = UUID(), explicitHeaderNames: Set<String> = [],
        deadline: CallDeadline? = nil
    ) {
        self.requestName = requestName
        self.callID = callID
        self.explicitHeaderNames = Set(explicitHeaderNames.map { $0.lowercased() })
        self.deadline = deadline
    }
}
