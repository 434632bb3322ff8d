import NetworkingHTTP

/// How a time limit stops an attempt on a transport that can stop a transfer on its own, without a task of its own
/// for the attempt: the limit installs an interruption for the attempt's task, the transport registers each
/// transfer it starts, and when the limit's timer wins the race the interruption stops them all. A transfer so
/// stopped ends as a cancelled one does (`CancellationError`, its body cancelled), which the limit reports as the
/// timeout it is.
///
/// A transport says it honours an interruption by conforming to ``InterruptibleTransport``; for any other, the
/// limit runs the attempt in a task of its own and cancels that task (``withTimeLimit(_:clock:onTimeout:discard:interruptible:_:)``).
/// Either way the timer and the claim-once race are the same: this only changes what the winning timer stops.
package final class TransferInterruption: TimeLimitClaim {
    /// The interruption of the attempt the current task runs under a time limit, if its transport honours one.
    @TaskLocal package static var current: TransferInterruption?

    private let state = LockedBox(
        (interrupted: false, stops: [UInt64: @Sendable () -> Void](), next: UInt64(0), winner: Bool?.none))

    package init() {}

    /// Claims the time limit's outcome (the limit's race lives here too: one lock for both); returns whether this
    /// claimer won. The timer wins with `byTimer`, the operation without.
    package func claim(byTimer: Bool) -> Bool {
        state.withLock { state in
            guard let winner = state.winner else {
                state.winner = byTimer
                return true
            }
            return winner == byTimer
        }
    }

    /// Registers `stop`, run once if the attempt is interrupted before ``unregister(_:)``.
    ///
    /// - Returns: The registration, or `nil` when the attempt was already interrupted (the caller stops at once).
    package func register(_ stop: @escaping @Sendable () -> Void) -> UInt64? {
        state.withLock { state in
            guard !state.interrupted else { return nil }
            state.next += 1
            state.stops[state.next] = stop
            return state.next
        }
    }

    /// Forgets a registration (its transfer ended).
    package func unregister(_ registration: UInt64) {
        state.withLock { _ = $0.stops.removeValue(forKey: registration) }
    }

    /// Stops every registered transfer, and any registered from now on.
    package func interrupt() {
        let stops = state.withLock { state in
            state.interrupted = true
            defer { state.stops = [:] }
            return Array(state.stops.values)
        }
        for stop in stops { stop() }
    }
}

/// A transport that stops a transfer when the ``TransferInterruption`` current at its `send` is interrupted, so
/// an attempt's time limit needs no task of its own for it (one thread hop fewer per call). Its `send` reads
/// ``TransferInterruption/current`` once and registers every transfer it starts, until the transfer ends.
package protocol InterruptibleTransport: HTTPTransport {}
