import NetworkingHTTP
import NetworkingCore

/// The rules of a concurrency limit, as a plain value: how many calls hold a slot and which wait, in order.
///
/// ``ConcurrencyLimitBehavior`` keeps one per partition in its ``ConcurrencyLimitStore``. A call is admitted at
/// once while a slot is free and nobody waits; otherwise it joins the end of the queue while the queue has room,
/// and is rejected when it has none. A released slot goes to the oldest waiter, so it never frees up while someone
/// waits; a waiter that gives up leaves the queue.
public struct ConcurrencyPermits: Sendable, Equatable {
    /// What ``admit(ticket:maximumInFlight:maximumQueueLength:)`` decided.
    public enum Admission: Sendable, Equatable {
        /// The call holds a slot now.
        case admitted
        /// The call waits, under its ticket, for a slot.
        case queued
        /// Every slot is taken and the queue is full.
        case rejected
    }

    /// How many calls hold a slot, waiters a slot was just handed to included.
    public private(set) var inFlight = 0
    /// The tickets of the waiting calls, oldest first.
    public private(set) var queue: [UInt64] = []

    /// No call in flight, nobody waiting.
    public init() {}

    /// Admits, queues or rejects a new call.
    ///
    /// - Parameters:
    ///   - ticket: The call's ticket, unique among the calls that share this value.
    ///   - maximumInFlight: The most calls in flight at once.
    ///   - maximumQueueLength: The most calls waiting.
    /// - Returns: What happens to the call.
    public mutating func admit(ticket: UInt64, maximumInFlight: Int, maximumQueueLength: Int) -> Admission {
        if inFlight < maximumInFlight && queue.isEmpty {
            inFlight += 1
            return .admitted
        }
        guard queue.count < maximumQueueLength else { return .rejected }
        queue.append(ticket)
        return .queued
    }

    /// Gives a finished call's slot to the oldest waiter, or frees it when nobody waits.
    ///
    /// - Returns: The ticket of the waiter that now holds the slot; `nil` when the slot was freed.
    public mutating func release() -> UInt64? {
        guard queue.isEmpty else { return queue.removeFirst() }
        inFlight = max(inFlight - 1, 0)
        return nil
    }

    /// Removes a waiter that gives up.
    ///
    /// - Parameter ticket: The waiter's ticket.
    /// - Returns: Whether it was waiting; `false` when a slot was already handed to it (or it had left).
    public mutating func leave(_ ticket: UInt64) -> Bool {
        guard let index = queue.firstIndex(of: ticket) else { return false }
        queue.remove(at: index)
        return true
    }

    /// Whether `ticket` is waiting.
    ///
    /// - Parameter ticket: A waiter's ticket.
    /// - Returns: `true` while the ticket is in the queue.
    public func isWaiting(_ ticket: UInt64) -> Bool {
        queue.contains(ticket)
    }
}
