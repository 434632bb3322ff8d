import Foundation
import NetworkingHTTP
import NetworkingCore

/// The error of a call a ``CircuitBreakerBehavior`` rejected without sending it: its circuit is open, or half-open
/// with every probe already out.
///
/// The client hands it over as `NetworkError/underlyingError` of a `NetworkError` of kind
/// `behavior("CircuitBreakerBehavior")`:
/// ```swift
/// do {
///     _ = try await client.send(NetworkRequest<Data>(path: "/items"))
/// } catch let error as NetworkError {
///     if let open = error.underlyingError as? CircuitOpenError {
///         print("offline for \(open.key), try again in \(open.retryAfter?.timeInterval ?? 0) s")
///     }
/// }
/// ```
public struct CircuitOpenError: PolicyRejection, Sendable, Hashable, CustomStringConvertible {
    /// The scope key of the circuit, such as `api.example.com:443`.
    public let key: String
    /// ``CircuitBreakerState/Phase/open`` or ``CircuitBreakerState/Phase/halfOpen``.
    public let phase: CircuitBreakerState.Phase
    /// When open: the time until the break ends and a probe may go; `nil` when half-open.
    public let retryAfter: Duration?

    /// Creates the error.
    ///
    /// - Parameters:
    ///   - key: The circuit's scope key.
    ///   - phase: The circuit's phase.
    ///   - retryAfter: The time until a probe may go, if known.
    public init(key: String, phase: CircuitBreakerState.Phase, retryAfter: Duration?) {
        self.key = key
        self.phase = phase
        self.retryAfter = retryAfter
    }

    /// `the circuit for api.example.com:443 is open; a probe may go in 4.5 s`.
    public var description: String {
        if let retryAfter {
            let seconds = (retryAfter.timeInterval * 1000).rounded() / 1000
            return "the circuit for \(key) is \(phase.rawValue); a probe may go in \(seconds) s"
        }
        return "the circuit for \(key) is \(phase.rawValue) and its probes are out; the call was not sent"
    }
}

extension CircuitOpenError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` reads as well.
    public var errorDescription: String? { description }
}
