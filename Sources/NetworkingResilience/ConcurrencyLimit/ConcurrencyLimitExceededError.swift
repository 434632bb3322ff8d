import Foundation
import NetworkingHTTP
import NetworkingCore

/// Thrown by ``ConcurrencyLimitBehavior`` when every slot of a partition is taken and its queue is full: the call
/// fails at once, before any I/O. It reaches the caller inside `NetworkError` of kind
/// `NetworkError/Kind/behavior(_:)` (`"ConcurrencyLimitBehavior"`), as its `NetworkError/underlyingError`.
public struct ConcurrencyLimitExceededError: PolicyRejection, Sendable, Hashable, CustomStringConvertible {
    /// The partition's key from the scope: `""` for `.client`, `host:port` for `.host`.
    public let partition: String
    /// The settings' ``ConcurrencyLimitSettings/maximumInFlight``.
    public let maximumInFlight: Int
    /// The settings' ``ConcurrencyLimitSettings/maximumQueueLength``.
    public let maximumQueueLength: Int

    /// Creates the error.
    ///
    /// - Parameters:
    ///   - partition: The partition's key.
    ///   - maximumInFlight: The limit of calls in flight.
    ///   - maximumQueueLength: The limit of calls waiting.
    public init(partition: String, maximumInFlight: Int, maximumQueueLength: Int) {
        self.partition = partition
        self.maximumInFlight = maximumInFlight
        self.maximumQueueLength = maximumQueueLength
    }

    /// `the client has 6 calls in flight and 100 waiting, its limits; the call was not sent`.
    public var description: String {
        let owner = partition.isEmpty ? "the client" : partition
        return "\(owner) has \(maximumInFlight) calls in flight and \(maximumQueueLength) waiting, its limits; "
            + "the call was not sent"
    }
}

extension ConcurrencyLimitExceededError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` reads as well.
    public var errorDescription: String? { description }
}
