import NetworkingHTTP
import NetworkingCore

/// Where ``CoalescingBehavior`` keeps its open ``InFlightCall``s, one per ``CoalescingKey``.
///
/// ``InMemoryCoalescingTable`` is the default. Both methods must be atomic: two callers asking for one key at once
/// must get the same call. A table may be given to several behaviors (several clients) to share calls between them.
public protocol CoalescingTable: Sendable {
    /// The open call stored under `key`, or the one `makeCall` makes, stored under `key` before returning.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - makeCall: Makes a new call; called at most once, only when none is stored.
    /// - Returns: The call for `key`.
    func call(for key: CoalescingKey, orInsert makeCall: () -> InFlightCall) -> InFlightCall

    /// Removes `call` if it is still the one stored under its key; otherwise does nothing.
    ///
    /// - Parameter call: A call that closed.
    func remove(_ call: InFlightCall)

    /// The calls stored now.
    var calls: [InFlightCall] { get }
}
