import Foundation
import NetworkingHTTP
import NetworkingCore

/// The default ``CircuitBreakerStore``: one state per key in memory, behind a lock.
///
/// Keys are never forgotten: with the default scope there is one per host and port the app talks to.
/// ```swift
/// let store = InMemoryCircuitBreakerStore()
/// let client = NetworkClient(baseURL: url, behavior: .circuitBreaker(store: store))
/// // later
/// let phase = store.state(for: "api.example.com:443")?.phase
/// ```
public struct InMemoryCircuitBreakerStore: CircuitBreakerStore {
    private let states = LockedBox<[String: CircuitBreakerState]>([:])

    /// Creates an empty store.
    public init() {}

    /// Runs `body` on the state of `key` under the store's lock, creating it as `initial` when absent.
    ///
    /// - Parameters:
    ///   - key: The scope key.
    ///   - initial: The state of a new key.
    ///   - body: Reads and changes the state.
    /// - Returns: What `body` returned.
    public func update<T>(_ key: String, initial: CircuitBreakerState, _ body: (inout CircuitBreakerState) -> T) -> T {
        states.withLock { states in
            body(&states[key, default: initial])
        }
    }

    /// A copy of the state of `key`, or `nil` when no call has used it.
    ///
    /// - Parameter key: The scope key.
    /// - Returns: The state.
    public func state(for key: String) -> CircuitBreakerState? {
        states.withLock { $0[key] }
    }

    /// The keys that have a state, sorted.
    public var keys: [String] {
        states.withLock { $0.keys.sorted() }
    }
}
