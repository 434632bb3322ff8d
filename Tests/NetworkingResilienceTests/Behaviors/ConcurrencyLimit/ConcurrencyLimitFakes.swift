import Foundation
import Networking
import NetworkingTesting
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A fake `next` for the concurrency-limit tests: each call to path `/<n>` records that it started, counts calls
/// in flight (and the highest count seen), then waits for `finish(n)` before answering 200.
final class HeldCalls: Sendable {
    private struct State {
        var started: [Int] = []
        var inFlight = 0
        var highest = 0
        var gates: [Int: Gate] = [:]
    }

    private let state = LockedBox(State())

    /// The `next` closure.
    var next: NextHandler {
        { [self] request in
            let number = Int(request.path.dropFirst()) ?? -1
            let gate = state.withLock { state -> Gate in
                state.started.append(number)
                state.inFlight += 1
                state.highest = max(state.highest, state.inFlight)
                return Self.gate(number, in: &state)
            }
            defer { state.withLock { $0.inFlight -= 1 } }
            await gate.wait()
            try Task.checkCancellation()
            return BehaviorFakes.response(to: request)
        }
    }

    /// The numbers of the calls that reached `next`, in order.
    var started: [Int] { state.withLock { $0.started } }
    /// The highest number of calls in `next` at once.
    var highest: Int { state.withLock { $0.highest } }

    /// Lets call `n` answer.
    func finish(_ number: Int) {
        state.withLock { Self.gate(number, in: &$0) }.open()
    }

    private static func gate(_ number: Int, in state: inout State) -> Gate {
        if let gate = state.gates[number] { return gate }
        let gate = Gate()
        state.gates[number] = gate
        return gate
    }

    /// A GET of `/<n>` on `host`.
    static func request(_ number: Int, host: String = "api.example.test") -> HTTPRequest {
        HTTPRequest(url: URL(string: "https://\(host)/\(number)")!)
    }
}
