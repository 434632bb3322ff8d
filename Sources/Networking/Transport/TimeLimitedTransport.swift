import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that ends a request itself when its time limit passes.
///
/// ``NetworkClient`` bounds every attempt. For a plain ``HTTPTransport`` it races the request against a timer in
/// a child task, which costs a task, a timer and two thread hand-offs per attempt. A transport that can keep the
/// limit more cheaply (the default transport keeps it in its own table of calls, under one shared timer)
/// adopts this protocol, and the client calls ``send(_:timeLimit:)`` instead whenever the client's clock is
/// ``SystemClock``. With a test clock the client keeps racing on that clock, so virtual time still works.
///
/// A transport that never waits (an in-memory answer) may adopt it by ignoring the limit.
public protocol TimeLimitedTransport: HTTPTransport {
    /// Sends `request`, throwing ``TimeLimitExceeded`` if no complete response arrives within `timeLimit`.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - timeLimit: How long the attempt may take, in real time.
    /// - Returns: The body and response head, for any status code.
    /// - Throws: ``TimeLimitExceeded`` when the limit passed; otherwise as ``HTTPTransport/send(_:)``.
    func send(_ request: URLRequest, timeLimit: Duration) async throws -> (Data, HTTPURLResponse)
}

/// Thrown by a ``TimeLimitedTransport`` when the time limit passed; the client reports it as a ``NetworkError`` of
/// kind ``NetworkError/Kind/timedOut(_:)``.
public struct TimeLimitExceeded: Error, Sendable {
    /// Creates the error.
    public init() {}
}
