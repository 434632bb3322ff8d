import Foundation
import NetworkingHTTP
import NetworkingCore

/// Counts calls in flight and reports when the client becomes busy (0 → 1) and idle (1 → 0): a network
/// activity indicator, a "syncing" badge, or a test waiting for quiet.
///
/// ```swift
/// let behavior = CombinedBehavior([
///     .activityCounter { isBusy in Task { @MainActor in spinner.isHidden = !isBusy } },
///     .logging(), .retry(), .authorization(.bearer, store: tokens),
/// ])
/// ```
///
/// - **Outside retry, wherever it is listed.** It counts each pass through it, and its placement
///   (`BehaviorPlacement/observation`) puts it outside retry whatever order you list behaviors in: a call counts
///   once however many attempts it makes, and the client stays busy during retry back-off.
/// - **Every outcome decrements:** success, unacceptable status, thrown errors and cancellation all end the count.
///   A streamed body (`NetworkClient/stream(_:behavior:)`, downloads) keeps the call counted until the stream
///   ends, fails, is cancelled or is dropped.
/// - **Callbacks alternate.** `onChange(true)` fires only on 0 → 1 and `onChange(false)` only on 1 → 0. The
///   count change and the callback happen together under one lock, so callbacks arrive strictly alternating,
///   busy first, never out of order, even with hundreds of concurrent calls. Because of that lock, `onChange` runs
///   synchronously on the calling task and must be quick: hop to the main actor with a `Task` for UI work, and
///   never wait in it for a network call. It may read `store.count`.
/// - **Sharing:** copies of one behavior value share its state and lock; give several clients the same value to
///   count them together.
///
/// Defaults: store ``InMemoryActivityCounterStore`` starting at zero; no callback. State kept: the injected
/// ``ActivityCounterStore`` (read it through ``store``).
public struct ActivityCounterBehavior: RequestBehavior {
    /// `BehaviorPlacement/observation`: one call counts once, however many attempts.
    public var placement: BehaviorPlacement { .observation }

    /// The counter: read `store.count` for the number of calls in flight.
    public let store: any ActivityCounterStore
    private let onChange: @Sendable (Bool) -> Void
    /// The last state reported to `onChange` (busy or idle), held with the lock that orders the reports. (A box of
    /// `Void` served as the lock before: ThreadSanitizer reported races on it, its zero-sized value having no
    /// address of its own to watch.)
    private let reported = LockedBox(false)

    /// Creates the behavior.
    ///
    /// - Parameters:
    ///   - store: The counter; a new ``InMemoryActivityCounterStore`` by default.
    ///   - onChange: Called with `true` when the count goes from 0 to 1 and `false` when it returns to 0.
    public init(
        store: any ActivityCounterStore = InMemoryActivityCounterStore(),
        onChange: @escaping @Sendable (_ isBusy: Bool) -> Void = { _ in }
    ) {
        self.store = store
        self.onChange = onChange
    }

    /// Counts the call in before `next` and out when it ends, whatever the outcome.
    ///
    /// - Parameters:
    ///   - request: The request, passed on unchanged.
    ///   - context: The call's context.
    ///   - next: The rest of the chain.
    /// - Returns: What `next` returned.
    /// - Throws: What `next` threw, unchanged.
    public func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        reported.withLock { busy in
            if store.increment() == 1 {
                busy = true
                onChange(true)
            }
        }
        let result: (HTTPResponse, HTTPResponse.Body)
        do {
            result = try await next(request)
        } catch {
            end()
            throw error
        }
        // A streamed body keeps the call busy until the stream ends, is cancelled or is dropped.
        if result.1.isStreaming {
            result.1.onTermination { [self] _ in end() }
        } else {
            end()
        }
        return result
    }

    private func end() {
        reported.withLock { busy in
            if store.decrement() == 0 {
                busy = false
                onChange(false)
            }
        }
    }
}

extension RequestBehavior where Self == ActivityCounterBehavior {
    /// Counts calls in flight and reports busy and idle transitions; it runs at `.observation`, outside retry.
    ///
    /// - Parameters:
    ///   - store: The counter; a new `InMemoryActivityCounterStore` by default.
    ///   - onChange: Called with `true` when the count goes from 0 to 1 and `false` when it returns to 0.
    /// - Returns: The behavior.
    public static func activityCounter(
        store: any ActivityCounterStore = InMemoryActivityCounterStore(),
        onChange: @escaping @Sendable (_ isBusy: Bool) -> Void = { _ in }
    ) -> ActivityCounterBehavior {
        ActivityCounterBehavior(store: store, onChange: onChange)
    }
}
