import Foundation
import Networking
import Testing
import NetworkingTestSupport

/// `CircuitBreakerState`, the breaker's rules, as a table: each row runs steps at given clock readings and lists
/// what each step did (`go`/`no` for a call let through or rejected, then the phase after it).
@Suite struct CircuitBreakerStateTests {
    typealias Outcome = CircuitBreakerState.Outcome

    enum Step {
        /// A call at `seconds` that ends at once with `outcome`.
        case call(Double, Outcome)
        /// A call at `seconds` that stays in flight as `label`.
        case start(Double, String)
        /// The call `label` ends at `seconds` with `outcome`.
        case end(Double, String, Outcome)
    }

    struct Row: CustomTestStringConvertible, Sendable {
        let name: String
        let settings: CircuitBreakerSettings
        let steps: [Step]
        let trace: [String]
        var testDescription: String { name }
    }

    static let fail = Outcome.failure(retryAfter: nil)

    static func settings(
        ratio: Double = 0.5, minimum: Int = 4, window: Double = 10, breakFor: Double = 5, probes: Int = 1,
        cap: Double = 60
    ) -> CircuitBreakerSettings {
        // The values are valid by construction; a row with a bad one fails in the settings tests instead.
        (try? CircuitBreakerSettings(
            failureRatio: ratio, minimumThroughput: minimum, samplingWindow: .seconds(window),
            breakDuration: .seconds(breakFor), halfOpenProbes: probes, maximumBreakDuration: .seconds(cap)))
            ?? .default
    }

    static let rows: [Row] = [
        Row(
            name: "opens when the ratio is reached with the minimum throughput", settings: settings(),
            steps: [.call(0, .success), .call(0, fail), .call(0, .success), .call(1, fail), .call(2, .success)],
            trace: ["go closed", "go closed", "go closed", "go open", "no open"]),
        Row(
            name: "never opens below the minimum throughput", settings: settings(),
            steps: [.call(0, fail), .call(0, fail), .call(0, fail), .call(0, fail)],
            trace: ["go closed", "go closed", "go closed", "go open"]),
        Row(
            name: "stays closed below the ratio", settings: settings(),
            steps: [.call(0, .success), .call(0, .success), .call(0, .success), .call(0, fail), .call(0, fail)],
            trace: ["go closed", "go closed", "go closed", "go closed", "go closed"]),
        Row(
            name: "a success never opens, even above the ratio", settings: settings(minimum: 2),
            steps: [.call(0, fail), .call(0, .success), .call(0, .success)],
            trace: ["go closed", "go closed", "go closed"]),
        Row(
            name: "outcomes older than the window are forgotten", settings: settings(),
            steps: [.call(0, fail), .call(0, fail), .call(0, fail), .call(10, fail), .call(10, fail)],
            trace: ["go closed", "go closed", "go closed", "go closed", "go closed"]),
        Row(
            name: "the window slides a tenth at a time", settings: settings(),
            steps: [.call(0, fail), .call(5, fail), .call(5, fail), .call(9.9, fail)],
            trace: ["go closed", "go closed", "go closed", "go open"]),
        Row(
            name: "ignored outcomes count neither way", settings: settings(minimum: 2),
            steps: [.call(0, fail), .call(0, .ignored), .call(0, .ignored), .call(0, fail)],
            trace: ["go closed", "go closed", "go closed", "go open"]),
        Row(
            name: "open rejects until the break ends, then one probe closes it", settings: settings(minimum: 1),
            steps: [
                .call(0, fail), .call(4.999, .success), .start(5, "p"), .call(5, .success), .end(6, "p", .success),
            ],
            trace: ["go open", "no open", "go halfOpen", "no halfOpen", "closed"]),
        Row(
            name: "a failed probe opens again for a new break", settings: settings(minimum: 1),
            steps: [.call(0, fail), .start(5, "p"), .end(6, "p", fail), .call(10.9, .success), .call(11, .success)],
            trace: ["go open", "go halfOpen", "open", "no open", "go closed"]),
        Row(
            name: "two probes must both succeed; a third call fails fast", settings: settings(minimum: 1, probes: 2),
            steps: [
                .call(0, fail), .start(5, "a"), .start(5, "b"), .call(5, .success), .end(6, "a", .success),
                .end(6, "b", .success),
            ],
            trace: ["go open", "go halfOpen", "go halfOpen", "no halfOpen", "halfOpen", "closed"]),
        Row(
            name: "one failed probe of two opens again", settings: settings(minimum: 1, probes: 2),
            steps: [.call(0, fail), .start(5, "a"), .start(5, "b"), .end(6, "a", .success), .end(6, "b", fail)],
            trace: ["go open", "go halfOpen", "go halfOpen", "halfOpen", "open"]),
        Row(
            name: "an ignored probe frees its place", settings: settings(minimum: 1),
            steps: [.call(0, fail), .start(5, "a"), .call(5, .success), .end(5, "a", .ignored), .call(5, .success)],
            trace: ["go open", "go halfOpen", "no halfOpen", "halfOpen", "go closed"]),
        Row(
            name: "a call let through before the circuit opened changes nothing", settings: settings(minimum: 1),
            steps: [.start(0, "slow"), .call(0, fail), .call(5, fail), .end(6, "slow", .success), .call(6, .success)],
            trace: ["go closed", "go open", "go open", "open", "no open"]),
        Row(
            name: "a stale failure cannot reopen a closed circuit", settings: settings(minimum: 1),
            steps: [.start(0, "slow"), .call(0, fail), .call(5, .success), .end(6, "slow", fail), .call(6, .success)],
            trace: ["go closed", "go open", "go closed", "closed", "go closed"]),
        Row(
            name: "Retry-After lengthens the break", settings: settings(minimum: 1),
            steps: [.call(0, .failure(retryAfter: .seconds(20))), .call(19.9, .success), .call(20, .success)],
            trace: ["go open", "no open", "go closed"]),
        Row(
            name: "Retry-After is capped by maximumBreakDuration", settings: settings(minimum: 1, cap: 30),
            steps: [.call(0, .failure(retryAfter: .seconds(86_400))), .call(29.9, .success), .call(30, .success)],
            trace: ["go open", "no open", "go closed"]),
        Row(
            name: "a short Retry-After never shortens the break", settings: settings(minimum: 1),
            steps: [.call(0, .failure(retryAfter: .seconds(1))), .call(4.9, .success), .call(5, .success)],
            trace: ["go open", "no open", "go closed"]),
        Row(
            name: "a closed circuit starts with an empty window", settings: settings(minimum: 2),
            steps: [.call(0, fail), .call(0, fail), .call(5, .success), .call(5, fail), .call(5, fail)],
            trace: ["go closed", "go open", "go closed", "go closed", "go open"]),
    ]

    @Test(arguments: rows)
    func rule(row: Row) {
        var state = CircuitBreakerState(settings: row.settings)
        var tickets: [String: CircuitBreakerState.Ticket] = [:]
        var trace: [String] = []
        func decide(_ seconds: Double) -> CircuitBreakerState.Ticket? {
            let (decision, _) = state.acquire(now: .seconds(seconds))
            if case .allowed(let ticket) = decision { return ticket }
            return nil
        }
        for step in row.steps {
            switch step {
            case .call(let seconds, let outcome):
                let ticket = decide(seconds)
                if let ticket { _ = state.record(outcome, for: ticket, now: .seconds(seconds)) }
                trace.append("\(ticket == nil ? "no" : "go") \(state.phase)")
            case .start(let seconds, let label):
                tickets[label] = decide(seconds)
                trace.append("\(tickets[label] == nil ? "no" : "go") \(state.phase)")
            case .end(let seconds, let label, let outcome):
                if let ticket = tickets[label] { _ = state.record(outcome, for: ticket, now: .seconds(seconds)) }
                trace.append("\(state.phase)")
            }
        }
        #expect(trace == row.trace)
        let counts = state.counts
        #expect(
            counts.allowed + counts.rejected == row.steps.filter { if case .end = $0 { false } else { true } }.count)
    }

    @Test func transitionsAndCountsAreReported() {
        var state = CircuitBreakerState(settings: Self.settings(minimum: 1))
        guard case (.allowed(let first), nil) = state.acquire(now: .zero) else {
            Issue.record("a closed circuit must let the call through")
            return
        }
        #expect(state.record(Self.fail, for: first, now: .zero) == .init(from: .closed, to: .open))
        #expect(state.acquire(now: .seconds(1)).0 == .rejected(.open, retryAfter: .seconds(4)))
        let (probe, change) = state.acquire(now: .seconds(5))
        #expect(change == .init(from: .open, to: .halfOpen))
        #expect(state.acquire(now: .seconds(5)).0 == .rejected(.halfOpen, retryAfter: nil))
        guard case .allowed(let ticket) = probe else {
            Issue.record("the first call after the break must be a probe")
            return
        }
        #expect(ticket.isProbe)
        #expect(state.record(.success, for: ticket, now: .seconds(5)) == .init(from: .halfOpen, to: .closed))
        let counts = state.counts
        let all: [Int] = [counts.allowed, counts.rejected, counts.successes, counts.failures]
        let others: [Int] = [counts.ignored, counts.stale, counts.opened]
        #expect(all == [2, 2, 1, 1])
        #expect(others == [0, 0, 1])
        #expect(state.windowTotals(at: .seconds(5)) == (0, 0))
    }

    @Test func hostileClockReadingsNeverTrap() {
        var state = CircuitBreakerState(settings: Self.settings(minimum: 1))
        for reading in [Duration.seconds(Int64.max), .seconds(Int64.min), .zero, .seconds(-5)] {
            if case .allowed(let ticket) = state.acquire(now: reading).0 {
                _ = state.record(.success, for: ticket, now: reading)
            }
        }
        #expect(state.counts.allowed + state.counts.rejected == 4)
    }
}
