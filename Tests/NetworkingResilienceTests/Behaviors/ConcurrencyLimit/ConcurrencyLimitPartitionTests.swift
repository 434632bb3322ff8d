import Testing

@testable import Networking
@testable import NetworkingHTTP
@testable import NetworkingCore
@testable import NetworkingTLS
@testable import NetworkingURLSession
@testable import NetworkingAuth
@testable import NetworkingResilience
@testable import NetworkingHTTPCache
@testable import NetworkingCookies
@testable import NetworkingObservability
@testable import NetworkingTransfers
import NetworkingTestSupport

/// The hand-over races of `ConcurrencyLimitPartition`, step by step: a slot that reaches a waiter before it has
/// suspended, and a waiter that gives up at that moment.
@Suite struct ConcurrencyLimitPartitionTests {
    /// One call in flight (ticket 1) and one waiting (ticket 2) under a limit of 1.
    private func busyPartition() -> ConcurrencyLimitPartition {
        var partition = ConcurrencyLimitPartition()
        _ = partition.permits.admit(ticket: 1, maximumInFlight: 1, maximumQueueLength: 1)
        _ = partition.permits.admit(ticket: 2, maximumInFlight: 1, maximumQueueLength: 1)
        return partition
    }

    /// What `suspend` says for ticket 2, with a continuation that is resumed at once.
    private func suspension(of partition: inout ConcurrencyLimitPartition) async -> ConcurrencyLimitPartition
        .Suspension?
    {
        var outcome: ConcurrencyLimitPartition.Suspension?
        try? await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            outcome = partition.suspend(2, continuation)
            continuation.resume()
        }
        return outcome
    }

    @Test func aSlotReleasedBeforeTheWaiterSuspendsIsKeptForIt() async throws {
        var partition = busyPartition()
        #expect(partition.releaseSlot() == nil)
        #expect(partition.permits.inFlight == 1 && partition.permits.queue.isEmpty)
        #expect(await suspension(of: &partition) == .admitted)
    }

    @Test func aWaiterThatLeftBeforeSuspendingIsToldSo() async throws {
        var partition = busyPartition()
        _ = partition.abandon(2)
        #expect(await suspension(of: &partition) == .left)
    }

    @Test func aWaiterGivingUpAsTheSlotArrivesReportsTheSlotSoItIsPassedOn() {
        var partition = busyPartition()
        #expect(partition.releaseSlot() == nil)
        let (continuation, heldSlot) = partition.abandon(2)
        #expect(continuation == nil)
        #expect(heldSlot)
        // The caller passes the slot on: nobody waits, so it is freed.
        #expect(partition.releaseSlot() == nil)
        #expect(partition.isIdle)
    }

    @Test func aWaiterGivingUpInTheQueueHoldsNoSlot() {
        var partition = busyPartition()
        let (continuation, heldSlot) = partition.abandon(2)
        #expect(continuation == nil)
        #expect(!heldSlot)
        #expect(partition.permits.inFlight == 1 && partition.permits.queue.isEmpty)
    }
}
