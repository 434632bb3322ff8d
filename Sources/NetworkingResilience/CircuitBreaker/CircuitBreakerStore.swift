import Foundation
import NetworkingHTTP
import NetworkingCore

/// Where a ``CircuitBreakerBehavior`` keeps one ``CircuitBreakerState`` per scope key.
///
/// The default, ``InMemoryCircuitBreakerStore``, keeps them in memory under a lock. Share one store between
/// breakers (or clients) to share their circuits; implement your own to observe or persist them. Every update must
/// be atomic: no other update of the same key may run between reading and writing the state.
public protocol CircuitBreakerStore: Sendable {
    /// Runs `body` on the state of `key` as one atomic step, creating the state as `initial` first when the key
    /// has none.
    ///
    /// - Parameters:
    ///   - key: The scope key, such as `api.example.com:443`.
    ///   - initial: The state of a key seen for the first time.
    ///   - body: Reads and changes the state; it must be quick and must not call the store.
    /// - Returns: What `body` returned.
    func update<T>(_ key: String, initial: CircuitBreakerState, _ body: (inout CircuitBreakerState) -> T) -> T
}
