import Foundation
import NetworkingHTTP
import NetworkingCore

/// Fails calls fast, without I/O, while a host keeps failing, and lets a probe through now and then to learn when
/// it is back.
///
/// ```swift
/// let client = NetworkClient(
///     baseURL: url,
///     behavior: CombinedBehavior([.retry(), .circuitBreaker()])
/// )
/// ```
/// One circuit per host and port by default (``BehaviorScope/host``). The rules are those of
/// ``CircuitBreakerState``, with the settings of ``CircuitBreakerSettings``. What counts as a failure is listed on
/// ``outcome(of:now:)``: 408, 429, 500, 502, 503, 504, connection failures and attempt timeouts; never another
/// status (the server answered), a cancellation or another behavior's error. A rejected call throws ``CircuitOpenError``, which the client hands
/// over as `NetworkError` of kind `behavior("CircuitBreakerBehavior")`.
///
/// Place it inside ``RetryBehavior``, so that each attempt counts and a retry of an open circuit fails fast.
/// State changes (closed → open → half-open → closed) reach `onStateChange`, called outside the store's lock.
public struct CircuitBreakerBehavior: RequestBehavior {
    /// `BehaviorPlacement/circuitBreaker`: inside retry: each attempt is an outcome.
    public var placement: BehaviorPlacement { .circuitBreaker }

    /// A circuit's change of phase, for logs and metrics.
    public struct StateChange: Sendable, Hashable {
        /// The circuit's scope key.
        public let key: String
        /// The phase before.
        public let from: CircuitBreakerState.Phase
        /// The phase after.
        public let to: CircuitBreakerState.Phase
        /// The name of the request whose arrival or outcome made the change.
        public let requestName: String
    }

    /// The rules' settings.
    public let settings: CircuitBreakerSettings
    /// How calls are split into circuits.
    public let scope: BehaviorScope
    /// Where the circuits live.
    public let store: any CircuitBreakerStore
    /// The clock of the window and of breaks.
    public let clock: (any NetworkClock)?
    /// Called after each change of phase.
    public let onStateChange: (@Sendable (StateChange) -> Void)?

    /// Creates a circuit breaker.
    ///
    /// - Parameters:
    ///   - settings: The rules' settings; ``CircuitBreakerSettings/default`` unless given.
    ///   - scope: How calls are split into circuits; one per host unless given.
    ///   - store: Where the circuits live; a new ``InMemoryCircuitBreakerStore`` unless given.
    ///   - clock: The clock of the window and breaks; the call's clock (the client's) unless given.
    ///   - onStateChange: Called after each change of phase; `nil` for nothing.
    public init(
        settings: CircuitBreakerSettings = .default,
        scope: BehaviorScope = .host,
        store: any CircuitBreakerStore = InMemoryCircuitBreakerStore(),
        clock: (any NetworkClock)? = nil,
        onStateChange: (@Sendable (StateChange) -> Void)? = nil
    ) {
        self.settings = settings
        self.scope = scope
        self.store = store
        self.clock = clock
        self.onStateChange = onStateChange
    }

    /// Sends `request` when its circuit lets it through and records the outcome; otherwise throws at once.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - context: The call's context; its name appears in ``StateChange``s.
    ///   - next: The rest of the chain, called at most once.
    /// - Returns: The response from `next`.
    /// - Throws: ``CircuitOpenError`` without calling `next` when the circuit rejects the call; otherwise what
    ///   `next` threw, unchanged.
    public func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        let clock = self.clock ?? context.clock
        let key = scope.key(for: request, context: context)
        let initial = CircuitBreakerState(settings: settings)
        let now = clock.now()
        let (decision, opening) = store.update(key, initial: initial) { $0.acquire(now: now) }
        report(opening, key: key, context: context)
        let ticket: CircuitBreakerState.Ticket
        switch decision {
        case .allowed(let allowed):
            ticket = allowed
        case .rejected(let phase, let retryAfter):
            throw CircuitOpenError(key: key, phase: phase, retryAfter: retryAfter)
        }
        let outcome: CircuitBreakerState.Outcome
        let result: Result<(HTTPResponse, HTTPResponse.Body), any Error>
        do {
            result = .success(try await next(request))
            outcome = .success
        } catch {
            result = .failure(error)
            outcome = Task.isCancelled ? .ignored : Self.outcome(of: error, now: clock.date())
        }
        let end = clock.now()
        let change = store.update(key, initial: initial) { $0.record(outcome, for: ticket, now: end) }
        report(change, key: key, context: context)
        return try result.get()
    }

    private func report(_ transition: CircuitBreakerState.Transition?, key: String, context: RequestContext) {
        guard let transition, let onStateChange else { return }
        onStateChange(
            StateChange(key: key, from: transition.from, to: transition.to, requestName: context.requestName))
    }
}

extension RequestBehavior where Self == CircuitBreakerBehavior {
    /// A circuit breaker with `settings`, one circuit per host unless `scope` says otherwise.
    ///
    /// - Parameters:
    ///   - settings: The rules' settings; `CircuitBreakerSettings/default` unless given.
    ///   - scope: How calls are split into circuits; one per host unless given.
    ///   - store: Where the circuits live; a new `InMemoryCircuitBreakerStore` unless given.
    ///   - clock: The clock of the window and breaks; the call's clock (the client's) unless given.
    ///   - onStateChange: Called after each change of phase.
    /// - Returns: The circuit breaker.
    public static func circuitBreaker(
        _ settings: CircuitBreakerSettings = .default,
        scope: BehaviorScope = .host,
        store: any CircuitBreakerStore = InMemoryCircuitBreakerStore(),
        clock: (any NetworkClock)? = nil,
        onStateChange: (@Sendable (CircuitBreakerBehavior.StateChange) -> Void)? = nil
    ) -> CircuitBreakerBehavior {
        CircuitBreakerBehavior(
            settings: settings, scope: scope, store: store, clock: clock, onStateChange: onStateChange)
    }
}
