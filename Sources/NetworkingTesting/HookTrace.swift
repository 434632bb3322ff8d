import Foundation
import NetworkingHTTP

/// A shared, ordered list of events, written by ``HookTraceBehavior``s (and by a test's own fakes) and read by
/// tests. `EventLog` before 1.0.
public final class HookTrace: Sendable {
    private let storage = LockedBox<[String]>([])

    /// Creates an empty trace.
    public init() {}

    /// Appends `event`.
    public func append(_ event: String) {
        storage.withLock { $0.append(event) }
    }

    /// Every event so far, in order.
    public var events: [String] { storage.current }
}
