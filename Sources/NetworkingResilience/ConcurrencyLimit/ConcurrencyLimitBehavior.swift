import Foundation
import NetworkingHTTP
import NetworkingCore

/// A bulkhead: at most ``ConcurrencyLimitSettings/maximumInFlight`` calls in flight per partition (the whole
/// client by default, or per host), later calls waiting in arrival order in a queue of bounded length.
///
/// ```swift
/// let client = NetworkClient(
///     baseURL: url,
///     behavior: CombinedBehavior([.concurrencyLimit(try ConcurrencyLimitSettings(maximumInFlight: 4)), .retry()])
/// )
/// ```
/// - **Queue:** a call that finds every slot taken waits; a released slot goes to the oldest waiter. A call that
///   finds the queue full fails at once, before any I/O, with ``ConcurrencyLimitExceededError`` (inside
///   `NetworkError` of kind `behavior("ConcurrencyLimitBehavior")`).
/// - **Giving up:** a waiter whose task is cancelled leaves the queue at once with `CancellationError`. The wait is
///   bounded like any wait of a behavior's own (`RequestContext/withTimeLimits(waitingFor:_:)`): by the call's
///   deadline (`timedOut(.call)`) and by the attempt time limit (`timedOut(.attempt)`), whichever ends first; the
///   waiter then leaves the queue too.
/// - **Every outcome releases:** the slot is released exactly once when the call ends, by success, error or
///   cancellation; a slot handed to a waiter that gave up at that moment is passed on, never lost.
/// - **Place it outermost** (after the activity counter): a call then holds one slot for all its attempts and
///   back-off, so the limit counts calls, not attempts. Inside retry it would count attempts, and a call could lose
///   its place between them.
///
/// Defaults: ``ConcurrencyLimitSettings/default`` (6 in flight, 100 waiting, `.client` scope); state in a new
/// ``InMemoryConcurrencyLimitStore``. Copies of one behavior value share their store, and so their limits.
public struct ConcurrencyLimitBehavior: RequestBehavior {
    /// `BehaviorPlacement/admission`: a call holds one slot for all its attempts.
    public var placement: BehaviorPlacement { .admission }

    /// The limits and the scope.
    public let settings: ConcurrencyLimitSettings
    /// Where the slots and queues of every partition live.
    public let store: any ConcurrencyLimitStore

    /// Tickets for waiters, unique in the process, so a late waiter can never be mistaken for a newer one.
    private static let tickets = LockedBox<UInt64>(0)

    /// Creates the behavior.
    ///
    /// - Parameters:
    ///   - settings: The limits and the scope; ``ConcurrencyLimitSettings/default`` unless given.
    ///   - store: The state; a new ``InMemoryConcurrencyLimitStore`` unless given.
    public init(
        settings: ConcurrencyLimitSettings = .default,
        store: any ConcurrencyLimitStore = InMemoryConcurrencyLimitStore()
    ) {
        self.settings = settings
        self.store = store
    }

    /// Takes a slot (waiting for one if needed), runs `next`, and releases the slot whatever the outcome.
    ///
    /// - Parameters:
    ///   - request: The request, passed on unchanged.
    ///   - context: The call's context: its deadline and attempt limit bound the wait.
    ///   - next: The rest of the chain, called once.
    /// - Returns: What `next` returned.
    /// - Throws: ``ConcurrencyLimitExceededError`` when the queue is full; `NetworkError` of kind `timedOut` when
    ///   the wait outlasts a time limit; `CancellationError`; what `next` threw, unchanged.
    public func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        try Task.checkCancellation()
        let key = settings.scope.key(for: request, context: context)
        let ticket = Self.tickets.withLock {
            $0 &+= 1
            return $0
        }
        let admission = store.withPartition(key) {
            $0.permits.admit(
                ticket: ticket, maximumInFlight: settings.maximumInFlight,
                maximumQueueLength: settings.maximumQueueLength)
        }
        switch admission {
        case .admitted: break
        case .rejected:
            throw ConcurrencyLimitExceededError(
                partition: key, maximumInFlight: settings.maximumInFlight,
                maximumQueueLength: settings.maximumQueueLength)
        case .queued: try await waitForSlot(ticket, key: key, context: context)
        }
        let result: (HTTPResponse, HTTPResponse.Body)
        do {
            try Task.checkCancellation()
            result = try await next(request)
        } catch {
            releaseSlot(key)
            throw error
        }
        // A streamed body holds its slot until the stream ends, fails, is cancelled or is dropped.
        if result.1.isStreaming {
            result.1.onTermination { [self] _ in releaseSlot(key) }
        } else {
            releaseSlot(key)
        }
        return result
    }

    /// Waits in the queue until a slot is handed over, the task is cancelled, or a time limit passes. On any way
    /// out but the first, the waiter has left the queue and holds no slot when this throws.
    private func waitForSlot(_ ticket: UInt64, key: String, context: RequestContext) async throws {
        let holdsSlot = LockedBox(false)
        let store = self.store
        do {
            try await context.withTimeLimits(waitingFor: "a free slot of the concurrency limit") {
                try await Self.suspend(ticket, key: key, store: store)
                holdsSlot.withLock { $0 = true }
            }
        } catch {
            // The slot may have come just as the limit passed or the call was cancelled: pass it on.
            if holdsSlot.current { releaseSlot(key) }
            throw error
        }
    }

    /// Suspends the waiter until its slot comes; leaves the queue on cancellation.
    private static func suspend(_ ticket: UInt64, key: String, store: any ConcurrencyLimitStore) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                switch store.withPartition(key, { $0.suspend(ticket, continuation) }) {
                case .admitted: continuation.resume()
                case .suspended: break
                case .left: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let (continuation, heldSlot) = store.withPartition(key) { $0.abandon(ticket) }
            continuation?.resume(throwing: CancellationError())
            if heldSlot { store.withPartition(key) { $0.releaseSlot() }?.resume() }
        }
    }

    /// Releases one slot of `key`, waking the oldest waiter if one has suspended.
    private func releaseSlot(_ key: String) {
        store.withPartition(key) { $0.releaseSlot() }?.resume()
    }
}

extension RequestBehavior where Self == ConcurrencyLimitBehavior {
    /// A bulkhead: at most `settings.maximumInFlight` calls in flight, the rest waiting in a bounded queue.
    ///
    /// - Parameters:
    ///   - settings: The limits and the scope; `ConcurrencyLimitSettings/default` unless given.
    ///   - store: The state; a new `InMemoryConcurrencyLimitStore` unless given.
    /// - Returns: The behavior.
    public static func concurrencyLimit(
        _ settings: ConcurrencyLimitSettings = .default,
        store: any ConcurrencyLimitStore = InMemoryConcurrencyLimitStore()
    ) -> ConcurrencyLimitBehavior {
        ConcurrencyLimitBehavior(settings: settings, store: store)
    }
}
