import Networking
import Testing
import NetworkingTestSupport

/// The pure rules of the concurrency limit, as tables: admit, queue, reject, hand over, leave.
@Suite struct ConcurrencyPermitsTests {
    /// One step: admit ticket `n`, release, or leave `n`; and what it returns.
    enum Step: Sendable, CustomStringConvertible {
        case admit(UInt64, ConcurrencyPermits.Admission)
        case release(UInt64?)
        case leave(UInt64, Bool)

        var description: String {
            switch self {
            case .admit(let ticket, let admission): "admit \(ticket) -> \(admission)"
            case .release(let ticket): "release -> \(ticket.map(String.init) ?? "freed")"
            case .leave(let ticket, let left): "leave \(ticket) -> \(left)"
            }
        }
    }

    static let scenarios: [(name: String, steps: [Step], inFlight: Int, queue: [UInt64])] = [
        ("admits up to the limit", [.admit(1, .admitted), .admit(2, .admitted)], 2, []),
        ("queues beyond it", [.admit(1, .admitted), .admit(2, .admitted), .admit(3, .queued)], 2, [3]),
        (
            "rejects when the queue is full",
            [.admit(1, .admitted), .admit(2, .admitted), .admit(3, .queued), .admit(4, .queued), .admit(5, .rejected)],
            2, [3, 4]
        ),
        (
            "hands a released slot to the oldest waiter",
            [.admit(1, .admitted), .admit(2, .admitted), .admit(3, .queued), .admit(4, .queued), .release(3)],
            2, [4]
        ),
        ("frees a slot when nobody waits", [.admit(1, .admitted), .admit(2, .admitted), .release(nil)], 1, []),
        (
            "a newcomer never overtakes a waiter",
            [.admit(1, .admitted), .admit(2, .admitted), .admit(3, .queued), .release(3), .admit(4, .queued)],
            2, [4]
        ),
        (
            "a waiter that leaves is skipped",
            [
                .admit(1, .admitted), .admit(2, .admitted), .admit(3, .queued), .admit(4, .queued), .leave(3, true),
                .release(4),
            ],
            2, []
        ),
        (
            "leaving twice, or after the hand-over, is a no-op",
            [.admit(1, .admitted), .admit(2, .admitted), .admit(3, .queued), .release(3), .leave(3, false)],
            2, []
        ),
        ("release never goes below zero", [.release(nil), .release(nil)], 0, []),
        (
            "room freed by a leaver is reused",
            [
                .admit(1, .admitted), .admit(2, .admitted), .admit(3, .queued), .admit(4, .queued), .leave(4, true),
                .admit(5, .queued),
            ],
            2, [3, 5]
        ),
    ]

    @Test(arguments: scenarios)
    func rules(scenario: (name: String, steps: [Step], inFlight: Int, queue: [UInt64])) {
        var permits = ConcurrencyPermits()
        for step in scenario.steps {
            switch step {
            case .admit(let ticket, let expected):
                let got = permits.admit(ticket: ticket, maximumInFlight: 2, maximumQueueLength: 2)
                #expect(got == expected, "\(scenario.name): \(step)")
            case .release(let expected):
                #expect(permits.release() == expected, "\(scenario.name): \(step)")
            case .leave(let ticket, let expected):
                #expect(permits.leave(ticket) == expected, "\(scenario.name): \(step)")
            }
        }
        #expect(permits.inFlight == scenario.inFlight, "\(scenario.name)")
        #expect(permits.queue == scenario.queue, "\(scenario.name)")
    }

    @Test func aZeroLengthQueueRejectsAtOnce() {
        var permits = ConcurrencyPermits()
        #expect(permits.admit(ticket: 1, maximumInFlight: 1, maximumQueueLength: 0) == .admitted)
        #expect(permits.admit(ticket: 2, maximumInFlight: 1, maximumQueueLength: 0) == .rejected)
        #expect(permits.queue.isEmpty)
    }
}
