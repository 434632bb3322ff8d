import Foundation
import Networking
import NetworkingTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A thread-safe counter for test doubles.
package final class LockedCounter: Sendable {
    package let box = LockedBox(0)
    package init() {}
    package func increment() { box.withLock { $0 += 1 } }
    package var value: Int { box.current }
}
