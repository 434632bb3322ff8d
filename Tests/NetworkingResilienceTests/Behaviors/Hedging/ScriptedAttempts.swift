import Foundation
import Networking
import NetworkingTesting
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A fake `next` for the hedging tests: attempt `n` (from 1) does what `script[n - 1]` says, and every attempt's
/// start, cancellation and end is recorded.
final class ScriptedAttempts: Sendable {
    enum Step: Sendable {
        /// Answer 200 with the attempt's number as the body.
        case answer
        /// Throw an unacceptable status at once.
        case fail(Int)
        /// Wait until cancelled, then throw `CancellationError`.
        case hang
    }

    private struct State {
        var started = 0
        var ended = 0
        var cancelled: [Int] = []
    }

    private let script: [Step]
    private let state = LockedBox(State())

    init(_ script: [Step]) { self.script = script }

    var started: Int { state.withLock { $0.started } }
    var ended: Int { state.withLock { $0.ended } }
    /// The attempts that saw their cancellation, in order.
    var cancelled: [Int] { state.withLock { $0.cancelled } }

    var next: NextHandler {
        { [self] request in
            let number = state.withLock {
                $0.started += 1
                return $0.started
            }
            defer { state.withLock { $0.ended += 1 } }
            switch number <= script.count ? script[number - 1] : .hang {
            case .answer:
                return BehaviorFakes.response(to: request, body: Data("\(number)".utf8))
            case .fail(let status):
                throw BehaviorFakes.unacceptable(request, status: status)
            case .hang:
                await BehaviorFakes.suspendUntilCancelled()
                state.withLock { $0.cancelled.append(number) }
                throw CancellationError()
            }
        }
    }
}
