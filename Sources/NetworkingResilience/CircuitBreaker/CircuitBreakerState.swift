import Foundation
import NetworkingHTTP
import NetworkingCore

/// The circuit breaker's rules as a plain value: closed, open and half-open phases, and a sliding window of
/// outcomes. ``CircuitBreakerBehavior`` keeps one per scope key in a ``CircuitBreakerStore``; every transition is a
/// pure function of the state, the outcome and the clock reading, so the rules are tested as tables.
///
/// - **Closed**: every call goes through; outcomes fill the window. When a failure leaves the window holding at
///   least ``CircuitBreakerSettings/minimumThroughput`` calls with a failure share of at least
///   ``CircuitBreakerSettings/failureRatio``, the circuit opens.
/// - **Open**: every call is rejected until the break ends (``CircuitBreakerSettings/breakLength(retryAfter:)``).
/// - **Half-open**: the first call after the break, and up to ``CircuitBreakerSettings/halfOpenProbes`` in all,
///   go through as probes; others are rejected. Any probe failure opens the circuit again; when every probe
///   succeeded, it closes with an empty window. A probe whose outcome says nothing (``Outcome/ignored``) frees its
///   place for another.
///
/// Outcomes of calls let through before the latest transition are counted in ``counts`` but change nothing: a
/// slow call that started while closed cannot close a circuit that opened since.
public struct CircuitBreakerState: Sendable, Hashable {
    /// The circuit's phase.
    public enum Phase: String, Sendable, Hashable {
        /// Calls go through.
        case closed
        /// Calls are rejected until the break ends.
        case open
        /// A few probes go through; the rest are rejected.
        case halfOpen
    }

    /// What one call's outcome means for the host's health.
    public enum Outcome: Sendable, Hashable {
        /// The server answered well enough.
        case success
        /// The server failed; `retryAfter` is the delay its `Retry-After` header asked for, if any.
        case failure(retryAfter: Duration?)
        /// Nothing about the server: a cancellation, another behavior's error, the call's own deadline.
        case ignored
    }

    /// The pass a call gets from ``acquire(now:)``, to hand back to ``record(_:for:now:)``.
    public struct Ticket: Sendable, Hashable {
        /// The transition count when the call was let through.
        public let generation: UInt64
        /// Whether the call is a half-open probe.
        public let isProbe: Bool
    }

    /// Whether a call may go through.
    public enum Decision: Sendable, Hashable {
        /// Send the call, then record its outcome with the ticket.
        case allowed(Ticket)
        /// Fail fast: the circuit is in `phase`; a probe may go in `retryAfter` (`nil` while probes are out).
        case rejected(Phase, retryAfter: Duration?)
    }

    /// A change of phase.
    public struct Transition: Sendable, Hashable {
        /// The phase before.
        public let from: Phase
        /// The phase after.
        public let to: Phase

        /// Creates a transition.
        ///
        /// - Parameters:
        ///   - from: The phase before.
        ///   - to: The phase after.
        public init(from: Phase, to: Phase) {
            self.from = from
            self.to = to
        }
    }

    /// Running totals since the state was made, for tests and diagnostics.
    public struct Counts: Sendable, Hashable {
        /// Calls let through.
        public var allowed = 0
        /// Calls rejected without I/O.
        public var rejected = 0
        /// Outcomes recorded as ``Outcome/success``.
        public var successes = 0
        /// Outcomes recorded as ``Outcome/failure(retryAfter:)``.
        public var failures = 0
        /// Outcomes recorded as ``Outcome/ignored``.
        public var ignored = 0
        /// Outcomes of calls let through before the latest transition, which changed nothing.
        public var stale = 0
        /// Times the circuit opened.
        public var opened = 0
    }

    /// The settings the rules follow.
    public let settings: CircuitBreakerSettings
    /// The current phase.
    public private(set) var phase: Phase = .closed
    /// When open: the clock reading at which the break ends.
    public private(set) var openUntil: Duration = .zero
    /// When half-open: probes let through whose outcome has not been recorded.
    public private(set) var probesInFlight = 0
    /// When half-open: probes that succeeded.
    public private(set) var probeSuccesses = 0
    /// Running totals.
    public private(set) var counts = Counts()
    /// Transitions so far; tickets of an older generation are stale.
    public private(set) var generation: UInt64 = 0
    var window: OutcomeWindow

    /// A closed circuit with an empty window.
    ///
    /// - Parameter settings: The rules' settings.
    public init(settings: CircuitBreakerSettings) {
        self.settings = settings
        self.window = OutcomeWindow(length: settings.samplingWindow)
    }

    /// The successes and failures the window holds at `now`.
    ///
    /// - Parameter now: The clock reading.
    /// - Returns: The two counts.
    public func windowTotals(at now: Duration) -> (successes: Int, failures: Int) {
        window.totals(at: now)
    }

    /// Decides whether a call may go through at `now`, moving from open to half-open when the break is over.
    ///
    /// - Parameter now: The clock reading.
    /// - Returns: The decision, and the transition it made, if any.
    public mutating func acquire(now: Duration) -> (Decision, Transition?) {
        var transition: Transition?
        switch phase {
        case .closed:
            counts.allowed += 1
            return (.allowed(Ticket(generation: generation, isProbe: false)), nil)
        case .open:
            guard now >= openUntil else {
                counts.rejected += 1
                return (.rejected(.open, retryAfter: openUntil - now), nil)
            }
            transition = move(to: .halfOpen)
        case .halfOpen:
            break
        }
        guard probesInFlight + probeSuccesses < settings.halfOpenProbes else {
            counts.rejected += 1
            return (.rejected(.halfOpen, retryAfter: nil), transition)
        }
        probesInFlight += 1
        counts.allowed += 1
        return (.allowed(Ticket(generation: generation, isProbe: true)), transition)
    }

    /// Records the outcome of a call let through with `ticket`.
    ///
    /// - Parameters:
    ///   - outcome: What the call's outcome says about the server.
    ///   - ticket: The call's ticket from ``acquire(now:)``.
    ///   - now: The clock reading.
    /// - Returns: The transition it made, if any.
    public mutating func record(_ outcome: Outcome, for ticket: Ticket, now: Duration) -> Transition? {
        switch outcome {
        case .success: counts.successes += 1
        case .failure: counts.failures += 1
        case .ignored: counts.ignored += 1
        }
        guard ticket.generation == generation else {
            counts.stale += 1
            return nil
        }
        switch (phase, outcome) {
        case (.closed, .success):
            window.add(failure: false, at: now)
        case (.closed, .failure(let retryAfter)):
            window.add(failure: true, at: now)
            let totals = window.totals(at: now)
            let calls = totals.successes + totals.failures
            guard calls >= settings.minimumThroughput,
                Double(totals.failures) / Double(calls) >= settings.failureRatio
            else { return nil }
            return open(now: now, retryAfter: retryAfter)
        case (.halfOpen, .success):
            probesInFlight -= 1
            probeSuccesses += 1
            return probeSuccesses >= settings.halfOpenProbes ? move(to: .closed) : nil
        case (.halfOpen, .failure(let retryAfter)):
            return open(now: now, retryAfter: retryAfter)
        case (.halfOpen, .ignored):
            probesInFlight -= 1
        case (.closed, .ignored), (.open, _):
            break
        }
        return nil
    }

    private mutating func open(now: Duration, retryAfter: Duration?) -> Transition {
        let transition = move(to: .open)
        openUntil = now + settings.breakLength(retryAfter: retryAfter)
        counts.opened += 1
        return transition
    }

    /// Enters `phase` with a fresh window and no probes; older tickets become stale.
    private mutating func move(to next: Phase) -> Transition {
        let transition = Transition(from: phase, to: next)
        phase = next
        generation &+= 1
        probesInFlight = 0
        probeSuccesses = 0
        window = OutcomeWindow(length: settings.samplingWindow)
        return transition
    }
}
