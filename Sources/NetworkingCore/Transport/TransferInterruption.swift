#if os(Linux)
    import Synchronization
#endif
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

    private struct State {
        var interrupted = false
        var winner: Bool?
        var next: UInt64 = 0
        /// The first registration, kept apart: an attempt usually starts one transfer, which then needs no table.
        var first: (registration: UInt64, stop: @Sendable () -> Void)?
        var more: [UInt64: @Sendable () -> Void] = [:]
    }

    /// The state, behind a lock kept in the object itself on Linux (`Mutex`), where every time-limited call makes an
    /// interruption; a lock box where `Mutex` needs a newer OS (as ``Attempt/record``).
    // Apple docs checked: Mutex (developer.apple.com/documentation/synchronization/mutex) needs macOS 15, iOS 18,
    // tvOS 18, watchOS 11, above this package's minimums; Linux has it with the toolchain.
    #if os(Linux) && !NETWORKING_APPLE_PATHS && !NETWORKING_TSAN
        private let state = Mutex(State())
    #else
        private let state = LockedBox(State())
    #endif

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
            if state.first == nil {
                state.first = (state.next, stop)
            } else {
                state.more[state.next] = stop
            }
            return state.next
        }
    }

    /// Forgets a registration (its transfer ended).
    package func unregister(_ registration: UInt64) {
        state.withLock { state in
            if state.first?.registration == registration {
                state.first = nil
            } else {
                state.more[registration] = nil
            }
        }
    }

    /// Stops every registered transfer, and any registered from now on.
    package func interrupt() {
        let stops = state.withLock { state in
            state.interrupted = true
            defer {
                state.first = nil
                state.more = [:]
            }
            return (state.first?.stop, Array(state.more.values))
        }
        stops.0?()
        for stop in stops.1 { stop() }
    }
}

/// A transport that stops a transfer when the ``TransferInterruption`` current at its `send` is interrupted, so
/// an attempt's time limit needs no task of its own for it (one thread hop fewer per call). Its `send` reads
/// ``TransferInterruption/current`` once and registers every transfer it starts, until the transfer ends.
package protocol InterruptibleTransport: HTTPTransport {}
