import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that can end a request itself when a time limit passes, more cheaply than the client's generic
/// race of the request against a timer task. ``NetworkClient`` uses it when its clock is the system clock.
protocol TimeLimitedTransport: HTTPTransport {
    /// Sends `request`, throwing ``TimeLimitExceeded`` if no complete response arrives within `timeLimit`.
    func send(_ request: URLRequest, timeLimit: Duration) async throws -> (Data, HTTPURLResponse)
}

/// Thrown by a ``TimeLimitedTransport`` when the time limit passed; the client reports it as
/// ``NetworkError/Kind/timedOut(_:)``.
struct TimeLimitExceeded: Error {}
