import Foundation
import NetworkingHTTP

/// A client-wide behavior that cannot work as given, found when the client is built, never at request time:
/// ``NetworkClient``'s initializers stop the program with its message (a behavior written in code that conflicts
/// is a programmer error, caught the first time the app starts), and ``NetworkClient/init(validating:)`` throws it,
/// for behaviors assembled at run time.
///
/// ```swift
/// do {
///     let behavior = CombinedBehavior([.retry(), .retry()])
///     _ = try NetworkClient(validating: .init(baseURL: api, transport: transport, behavior: behavior))
/// } catch {
///     print(error)  // two behaviors of the retry placement (RetryBehavior, RetryBehavior); keep one ...
/// }
/// ```
///
/// The chain orders behaviors by ``BehaviorPlacement`` itself, so order is never a conflict. What it refuses:
/// - two behaviors of an exclusive placement (``BehaviorPlacement/isExclusive``: retry, hedging, circuit breaker,
///   cache, coalescing), whose effects would multiply (two retries make 3 × 3 attempts) or hide each other;
/// - a ``BehaviorOverride`` in the client-wide behavior, where it would act on nothing.
///
/// Per-request behaviors cannot be known when the client is built: a per-request behavior of an exclusive
/// placement takes the place of the client-wide one for that call, and two of one exclusive placement in the same
/// per-request behavior fail the call with ``NetworkError/Kind/behavior(_:)`` before any I/O.
public struct BehaviorConflictError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Sendable, Hashable {
        /// Two or more behaviors of one exclusive placement; their type names, outermost first.
        case duplicate(BehaviorPlacement, [String])
        /// An override (of the named type or family) in the client-wide behavior.
        case overrideOutsideCall(String)
    }

    /// What is wrong.
    public let reason: Reason

    /// Creates the error.
    ///
    /// - Parameter reason: What is wrong.
    public init(_ reason: Reason) {
        self.reason = reason
    }

    /// A sentence naming the behaviors and the fix.
    public var description: String {
        switch reason {
        case .duplicate(let placement, let names):
            return "two behaviors of the \(placement) placement (\(names.joined(separator: ", "))); keep one:"
                + " their effects would multiply or hide each other"
        case .overrideOutsideCall(let subject):
            return "an override of \(subject) is in the client-wide behavior, where it does nothing;"
                + " pass it per call: client.send(request, behavior: .without(...))"
        }
    }
}

extension BehaviorConflictError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` reads as well.
    public var errorDescription: String? { description }
}
