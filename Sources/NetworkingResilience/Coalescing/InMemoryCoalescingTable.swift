import NetworkingHTTP
import NetworkingCore

/// The default ``CoalescingTable``: a dictionary behind a lock.
public final class InMemoryCoalescingTable: CoalescingTable {
    private let entries = LockedBox([CoalescingKey: InFlightCall]())

    /// Creates an empty table.
    public init() {}

    /// The open call stored under `key`, or the one `makeCall` makes, stored under the same lock.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - makeCall: Makes a new call when none is stored.
    /// - Returns: The call for `key`.
    public func call(for key: CoalescingKey, orInsert makeCall: () -> InFlightCall) -> InFlightCall {
        entries.withLock { entries in
            if let call = entries[key] { return call }
            let call = makeCall()
            entries[key] = call
            return call
        }
    }

    /// Removes `call` if it is still the one stored under its key.
    ///
    /// - Parameter call: A call that closed.
    public func remove(_ call: InFlightCall) {
        entries.withLock { entries in
            if entries[call.key] === call { entries[call.key] = nil }
        }
    }

    /// The calls stored now.
    public var calls: [InFlightCall] { Array(entries.current.values) }
}
