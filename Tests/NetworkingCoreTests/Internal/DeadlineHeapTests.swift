import Networking
import Testing
import NetworkingTestSupport

/// The indexed min-heap behind the deadline scheduler: order, removal by id, and nothing left behind.
@Suite struct DeadlineHeapTests {
    @Test func dueEntriesComeOutEarliestFirstAndRemovedOnesNever() {
        var heap = DeadlineHeap()
        let origin = ContinuousClock.now
        let taken = LockedBox<[Int]>([])
        var generator = SystemRandomNumberGenerator()
        let offsets = (0..<500).map { _ in Int.random(in: 0..<10_000, using: &generator) }
        var ids: [UInt64] = []
        for offset in offsets {
            ids.append(heap.insert(deadline: origin + .milliseconds(offset)) { taken.withLock { $0.append(offset) } })
        }
        var kept: [Int] = []
        for (index, id) in ids.enumerated() {
            if index % 3 == 0 {
                let first = heap.remove(id)
                let second = heap.remove(id)
                #expect(first)
                #expect(!second, "a second removal finds nothing")
            } else {
                kept.append(offsets[index])
            }
        }
        #expect(heap.count == kept.count)
        let cut = origin + .milliseconds(5_000)
        for action in heap.removeDue(at: cut) { action() }
        #expect(taken.current == kept.filter { $0 <= 5_000 }.sorted())
        #expect(heap.earliest.map { $0 > cut } ?? true)
        for action in heap.removeDue(at: origin + .seconds(20)) { action() }
        #expect(taken.current == kept.sorted())
        #expect(heap.count == 0)
        #expect(heap.earliest == nil)
    }

    @Test func interleavedInsertionsAndRemovalsKeepEveryPendingEntryFindable() {
        // The heap's table of places grows, shrinks and shifts entries back on removal: checked against a plain set
        var heap = DeadlineHeap()
        let origin = ContinuousClock.now
        var generator = SystemRandomNumberGenerator()
        var pending: [UInt64: Int] = [:]
        var gone: [UInt64] = []
        for step in 0..<5_000 {
            if pending.isEmpty || Int.random(in: 0..<3, using: &generator) > 0 {
                let offset = Int.random(in: 0..<100_000, using: &generator)
                pending[heap.insert(deadline: origin + .milliseconds(offset)) {}] = offset
            } else {
                let id = pending.keys.randomElement(using: &generator)!
                let removed = heap.remove(id)
                #expect(removed, "step \(step)")
                pending[id] = nil
                gone.append(id)
            }
        }
        #expect(heap.count == pending.count)
        for id in gone.suffix(100) {
            let removedAgain = heap.remove(id)
            #expect(!removedAgain)
        }
        #expect(heap.earliest == pending.values.min().map { origin + .milliseconds($0) })
        let due = heap.removeDue(at: origin + .seconds(200))
        #expect(due.count == pending.count)
        #expect(heap.count == 0)
    }

    @Test func anEntryTakenAsDueCanNoLongerBeRemoved() {
        var heap = DeadlineHeap()
        let origin = ContinuousClock.now
        let early = heap.insert(deadline: origin) {}
        let late = heap.insert(deadline: origin + .seconds(60)) {}
        let due = heap.removeDue(at: origin + .seconds(1))
        let removedEarly = heap.remove(early)
        let removedLate = heap.remove(late)
        #expect(due.count == 1)
        #expect(!removedEarly)
        #expect(removedLate)
        #expect(heap.count == 0)
    }
}
