import Foundation
import NetworkingHTTP
import NetworkingCore

/// Sends a second attempt of a slow idempotent call while the first is still running, takes the first answer and
/// cancels the rest: it cuts tail latency at the cost of a little more load.
///
/// ```swift
/// let client = NetworkClient(
///     baseURL: url,
///     behavior: CombinedBehavior([.hedging(), .authorization(.bearer, store: tokens)])
/// )
/// ```
/// - **Only what is safe to send twice:** an idempotent method (`GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS`,
///   `TRACE`) or a request carrying an `Idempotency-Key` (``HedgingSettings/idempotencyKeyHeader``) when it
///   reaches the behavior: set on the `NetworkRequest` itself, or by an ``IdempotencyKeyBehavior``, client-wide or
///   per request (its placement, `callSetup`, comes before `hedging` either way). Anything else passes through
///   untouched: one attempt, no timer.
/// - **When:** after ``HedgingSettings/delay`` (a fixed wait, or a percentile of the latencies seen) without an
///   answer from the newest attempt, another is sent, up to ``HedgingSettings/maximumHedges`` extra attempts.
///   An attempt that fails with an error worth another try (``HedgingSettings/isFinal(_:)`` is false) sends the
///   next one at once instead of waiting, as Polly does.
/// - **Answer:** the first success wins and every other attempt is cancelled and awaited before it is returned
///   (a task group: nothing outlives the call). A final error (a 404, the call's deadline) also ends the call at
///   once. When every attempt fails, the caller gets the error of the last one to fail, never a
///   `CancellationError` from cancelling the others; a `CancellationError` reaches the caller only when the call
///   itself was cancelled.
/// - **Latencies:** each successful attempt's latency, measured on the injected clock, goes into the
///   ``LatencyStore`` for its partition (``HedgingSettings/scope``).
/// - **Place it where retry would go**, as an alternative to it: behaviors inside it (authorization, request
///   modifiers) run once per attempt. Used with retry, put retry outside it.
///
/// Defaults: ``HedgingSettings/default`` (1 hedge after the 95th percentile, 1 s until 20 latencies are known, per
/// host); a new ``InMemoryLatencyStore``; the call's clock.
public struct HedgingBehavior: RequestBehavior {
    /// `BehaviorPlacement/hedging`: inside retry, so a hedged attempt can still be retried.
    public var placement: BehaviorPlacement { .hedging }

    /// The rules.
    public let settings: HedgingSettings
    /// Where latencies are kept.
    public let store: any LatencyStore
    /// The clock of the delays and of the latencies.
    public let clock: (any NetworkClock)?

    /// Creates the behavior.
    ///
    /// - Parameters:
    ///   - settings: The rules; ``HedgingSettings/default`` unless given.
    ///   - store: Where latencies are kept; a new ``InMemoryLatencyStore`` unless given.
    ///   - clock: The clock to wait on and measure with; the call's clock (the client's) unless given.
    public init(
        settings: HedgingSettings = .default,
        store: any LatencyStore = InMemoryLatencyStore(),
        clock: (any NetworkClock)? = nil
    ) {
        self.settings = settings
        self.store = store
        self.clock = clock
    }

    /// What a child task of the call's group reports.
    private enum Event: Sendable {
        case answered(HTTPResponse, HTTPResponse.Body)
        case failed(any Error)
        case delayPassed(generation: Int)
        case timerCancelled
    }

    /// Sends `request` once, or as several racing attempts when it is safe to.
    ///
    /// - Parameters:
    ///   - request: The request, the same for every attempt.
    ///   - context: The call's context.
    ///   - next: The rest of the chain, called once per attempt, concurrently.
    /// - Returns: The first successful answer.
    /// - Throws: A final error; the last attempt's error when all fail; `CancellationError` when the call is
    ///   cancelled.
    public func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        guard settings.allowsHedging(request) else { return try await next(request) }
        let key = settings.scope.key(for: request, context: context)
        let delay = settings.hedgingDelay(for: key, in: store)
        // The group awaits every attempt before it returns, so `next` never outlives this call.
        return try await withoutActuallyEscaping(next) { next in
            try await race(request, key: key, delay: delay, clock: clock ?? context.clock, next: next)
        }
    }

    /// Runs the attempts and timers in one task group until an answer, a final error, or the last failure.
    private func race(
        _ request: HTTPRequest, key: String, delay: Duration, clock: any NetworkClock, next: @escaping NextHandler
    ) async throws
        -> (HTTPResponse, HTTPResponse.Body)
    {
        let store = self.store
        let maximumAttempts = settings.maximumHedges + 1
        return try await withThrowingTaskGroup(of: Event.self) { group in
            var sent = 0
            var running = 0
            var generation = 0
            var lastError: (any Error)?
            func send() {
                sent += 1
                running += 1
                group.addTask {
                    let start = clock.now()
                    do {
                        let (response, body) = try await next(request)
                        store.record(clock.now() - start, for: key)
                        return .answered(response, body)
                    } catch {
                        return .failed(error)
                    }
                }
                guard sent < maximumAttempts else { return }
                generation += 1
                group.addTask { [generation] in
                    do {
                        try await clock.sleep(for: delay)
                        return .delayPassed(generation: generation)
                    } catch {
                        return .timerCancelled
                    }
                }
            }
            send()
            while let event = try await group.next() {
                if Task.isCancelled {
                    group.cancelAll()
                    throw CancellationError()
                }
                switch event {
                case .answered(let response, let body):
                    group.cancelAll()
                    return (response, body)
                case .failed(let error):
                    running -= 1
                    if Self.isFinal(error) {
                        group.cancelAll()
                        throw error
                    }
                    if !(error is CancellationError) { lastError = error }
                    if sent < maximumAttempts {
                        send()
                    } else if running == 0 {
                        group.cancelAll()
                        throw lastError ?? error
                    }
                case .delayPassed(let fired):
                    if fired == generation && sent < maximumAttempts { send() }
                case .timerCancelled:
                    break
                }
            }
            // Unreachable: the group ends only after the last attempt, which returns or throws above.
            throw lastError ?? CancellationError()
        }
    }

    /// A `CancellationError` an attempt threw while the call goes on cannot come from the call (checked before),
    /// so it is treated as a failed attempt; the rest follow ``HedgingSettings/isFinal(_:)``.
    private static func isFinal(_ error: any Error) -> Bool {
        error is CancellationError ? false : HedgingSettings.isFinal(error)
    }
}

extension RequestBehavior where Self == HedgingBehavior {
    /// Hedges idempotent calls: another attempt after `settings.delay`, the first answer wins, the rest are
    /// cancelled.
    ///
    /// - Parameters:
    ///   - settings: The rules; `HedgingSettings/default` unless given.
    ///   - store: Where latencies are kept; a new `InMemoryLatencyStore` unless given.
    ///   - clock: The clock to wait on and measure with; the call's clock (the client's) unless given.
    /// - Returns: The behavior.
    public static func hedging(
        _ settings: HedgingSettings = .default,
        store: any LatencyStore = InMemoryLatencyStore(),
        clock: (any NetworkClock)? = nil
    ) -> HedgingBehavior {
        HedgingBehavior(settings: settings, store: store, clock: clock)
    }
}
