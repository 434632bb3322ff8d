import Foundation

/// A value guarded by a lock: the package's single `@unchecked Sendable` type.
///
/// Every piece of mutable state shared between tasks (the transport's table of in-flight tasks, behavior counters,
/// mock transports) lives in one of these boxes, so the one place that the compiler cannot check is this file.
/// `package` access lets `NetworkingTesting` use it without making it public API.
package final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Creates a box holding `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value and returns its result.
    @discardableResult
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the current value.
    package var current: Value {
        withLock { $0 }
    }
}
