import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A value guarded by a lock: the package's single `@unchecked Sendable` type.
///
/// Every piece of mutable state shared between tasks (the transport's table of in-flight tasks, behavior counters,
/// mock transports) lives in one of these boxes, so the one place that the compiler cannot check is this file.
/// `package` access lets `NetworkingTesting` use it without making it public API. `withLock` is inlinable, so each
/// caller gets a copy specialized for its value rather than the generic one.
///
/// On Linux the lock is a plain `pthread_mutex_t` of the box's own: Foundation's `NSLock` there allocates an
/// object, a mutex and a condition with its mutex (for `lock(before:)`), and a call makes and frees several boxes.
/// Elsewhere it is `NSLock`. Neither is recursive: a `withLock` inside another on the same box is a bug.
/// (`make portability` builds and tests the `NSLock` branch on Linux too, with `-DNETWORKING_APPLE_PATHS`.)
package final class LockedBox<Value>: @unchecked Sendable {
    // Apple docs checked: NSLock (developer.apple.com/documentation/foundation/nslock), lock() and unlock() from the
    // thread that locked it, as withLock does.
    #if canImport(Glibc) && !NETWORKING_APPLE_PATHS
        @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    #else
        @usableFromInline let lock = NSLock()
    #endif
    /// The value; read and written only under the lock, which is what makes each access exclusive. The runtime's
    /// own exclusivity check (a thread-local access set, two calls per access) would repeat that on every
    /// `withLock`, of which a call makes a dozen: unchecked here.
    @exclusivity(unchecked) @usableFromInline var value: Value

    /// Creates a box holding `value`.
    package init(_ value: Value) {
        self.value = value
        // Apple docs checked: NSLock, as above.
        #if canImport(Glibc) && !NETWORKING_APPLE_PATHS
            mutex = .allocate(capacity: 1)
            pthread_mutex_init(mutex, nil)
        #endif
    }

    // Apple docs checked: NSLock, as above.
    #if canImport(Glibc) && !NETWORKING_APPLE_PATHS
        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }
    #endif

    /// Runs `body` with exclusive access to the value and returns its result.
    @discardableResult @inlinable
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        // Apple docs checked: NSLock, as above.
        #if canImport(Glibc) && !NETWORKING_APPLE_PATHS
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
        #else
            lock.lock()
            defer { lock.unlock() }
        #endif
        return try body(&value)
    }

    /// A copy of the current value.
    package var current: Value {
        withLock { $0 }
    }

    /// Takes the lock and releases it, touching nothing: what another thread did before it last released the lock
    /// is then ordered before what follows, in a way ThreadSanitizer sees. For a hand-off through a continuation
    /// that may be resumed before its task has suspended: the runtime's path for that carries no annotation for
    /// the sanitizer (swiftlang/swift#57803), which then reports what the resuming thread made as raced.
    @inlinable
    package func synchronize() {
        withLock { _ in }
    }
}
