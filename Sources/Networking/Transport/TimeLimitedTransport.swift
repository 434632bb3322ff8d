import Foundation

/// A transport that ends a request itself when its time limit passes.
///
/// ``NetworkClient`` bounds every attempt. For a plain ``HTTPTransport`` it races the request against a timer; a
/// transport that can keep the limit more cheaply (the default transport keeps it in its own table of calls,
/// under one shared timer) adopts this protocol, and the client calls ``send(_:timeLimit:)`` instead whenever the
/// client's clock is ``SystemClock``.
package protocol TimeLimitedTransport: HTTPTransport {
    /// Sends `request`, throwing ``TimeLimitExceeded`` if no complete response arrives within `timeLimit`.
    func send(_ request: HTTPRequest, timeLimit: Duration) async throws -> (HTTPResponse, Data)
}

/// Thrown by a ``TimeLimitedTransport`` when the time limit passed; the client reports it as a ``NetworkError`` of
/// kind ``NetworkError/Kind/timedOut(_:)``.
package struct TimeLimitExceeded: Error, Sendable {
    package init() {}
}
