import NetworkingHTTP
import NetworkingCore

/// The state of one partition of a concurrency limit: its ``ConcurrencyPermits`` and the suspended waiters that a
/// released slot wakes. A ``ConcurrencyLimitStore`` keeps one per partition key and changes it under its lock.
public struct ConcurrencyLimitPartition: Sendable {
    /// The slots in use and the queue, oldest first.
    public internal(set) var permits = ConcurrencyPermits()
    /// Waiters suspended on their ticket.
    private var suspended: [UInt64: CheckedContinuation<Void, any Error>] = [:]
    /// Tickets a slot was handed to before their waiter had suspended.
    private var handedOver: Set<UInt64> = []

    /// An empty partition: no call in flight, nobody waiting.
    public init() {}

    /// Whether nothing is in flight and nobody waits, so the store may forget the partition.
    public var isIdle: Bool { permits.inFlight == 0 && permits.queue.isEmpty }

    /// What a waiter should do on suspending.
    enum Suspension {
        /// It holds the slot already: resume at once.
        case admitted
        /// It waits for ``releaseSlot()`` to resume it.
        case suspended
        /// It left before suspending: resume with `CancellationError`.
        case left
    }

    /// Passes a finished call's slot to the oldest waiter.
    ///
    /// - Returns: The waiter to resume, if it had suspended already.
    mutating func releaseSlot() -> CheckedContinuation<Void, any Error>? {
        guard let ticket = permits.release() else { return nil }
        if let continuation = suspended.removeValue(forKey: ticket) { return continuation }
        handedOver.insert(ticket)
        return nil
    }

    /// Records a waiter's continuation, unless the slot already came or the waiter already left.
    mutating func suspend(_ ticket: UInt64, _ continuation: CheckedContinuation<Void, any Error>) -> Suspension {
        if handedOver.remove(ticket) != nil { return .admitted }
        guard permits.isWaiting(ticket) else { return .left }
        suspended[ticket] = continuation
        return .suspended
    }

    /// Takes a waiter that gives up out of the queue.
    ///
    /// - Returns: Its continuation if it had suspended, and whether a slot had been handed to it before it could
    ///   suspend (the caller must then release that slot).
    mutating func abandon(_ ticket: UInt64) -> (continuation: CheckedContinuation<Void, any Error>?, heldSlot: Bool) {
        if permits.leave(ticket) { return (suspended.removeValue(forKey: ticket), false) }
        return (nil, handedOver.remove(ticket) != nil)
    }
}
