import NetworkingHTTP

/// The pending deadlines of a ``DeadlineScheduler``: a binary min-heap ordered by deadline, indexed by id so that
/// an entry leaves the heap the moment its call ends.
///
/// Insertion, removal by id and taking the earliest entry are O(log n) in the number of pending entries, which is
/// the number of calls in flight: nothing stays behind once a call has removed its entry, and the storage is
/// released when the heap empties after a burst.
package struct DeadlineHeap {
    /// One pending deadline.
    package struct Entry {
        /// When the entry is due, as the time from ``DeadlineHeap/origin``: a `Duration` is laid out at compile time,
        /// where an `Instant` of the concurrency library (resilient) is copied through its type's witnesses at every
        /// step of a sift.
        let deadline: Duration
        /// The id ``DeadlineHeap/insert(deadline:action:)`` returned for it.
        let id: UInt64
        /// What to run once the deadline has passed.
        let action: @Sendable () -> Void
    }

    /// Above this many slots, an emptied heap gives its storage back.
    private static let retainedCapacity = 1_024

    /// The entries in heap order: each is due no later than its two children.
    private var entries: [Entry] = []
    /// The index in `entries` of each pending id.
    private var positions = Positions()
    /// The last id handed out.
    private var lastID: UInt64 = 0

    /// The instant deadlines are measured from.
    private static let origin = ContinuousClock.now

    /// Creates an empty heap.
    package init() {}

    /// The number of pending entries.
    package var count: Int { entries.count }

    /// The earliest pending deadline, if any.
    package var earliest: ContinuousClock.Instant? { entries.first.map { Self.origin + $0.deadline } }

    /// Adds an entry running `action` at `deadline` and returns its id, unique in this heap.
    package mutating func insert(deadline: ContinuousClock.Instant, action: @escaping @Sendable () -> Void) -> UInt64 {
        lastID &+= 1
        entries.append(Entry(deadline: Self.origin.duration(to: deadline), id: lastID, action: action))
        positions.set(lastID, at: entries.count - 1)
        siftUp(from: entries.count - 1)
        return lastID
    }

    /// Removes the entry `id`; returns false if it is not pending (already taken as due, or never added).
    @discardableResult
    package mutating func remove(_ id: UInt64) -> Bool {
        guard let index = positions.remove(id) else { return false }
        let last = entries.count - 1
        if index != last {
            entries.swapAt(index, last)
            positions.set(entries[index].id, at: index)
        }
        entries.removeLast()
        if index < entries.count {
            siftDown(from: siftUp(from: index))
        } else if entries.isEmpty && entries.capacity > Self.retainedCapacity {
            entries = []
            positions.removeAll()
        }
        return true
    }

    /// Removes every entry due at `now` and returns their actions, earliest deadline first.
    package mutating func removeDue(at now: ContinuousClock.Instant) -> [@Sendable () -> Void] {
        var due: [@Sendable () -> Void] = []
        let now = Self.origin.duration(to: now)
        while let first = entries.first, first.deadline <= now {
            due.append(first.action)
            remove(first.id)
        }
        return due
    }

    /// Moves the entry at `index` up while it is due before its parent; returns where it ends.
    @discardableResult
    private mutating func siftUp(from index: Int) -> Int {
        var positions = self.positions
        self.positions = Positions()
        defer { self.positions = positions }
        // In place through the buffer: reading a deadline through the array's subscript copied the whole entry.
        return entries.withUnsafeMutableBufferPointer { heap in
            var child = index
            while child > 0 {
                let parent = (child - 1) / 2
                guard heap[child].deadline < heap[parent].deadline else { break }
                Self.swap(child, parent, in: heap, &positions)
                child = parent
            }
            return child
        }
    }

    /// Moves the entry at `index` down while one of its children is due before it.
    private mutating func siftDown(from index: Int) {
        var positions = self.positions
        self.positions = Positions()
        defer { self.positions = positions }
        entries.withUnsafeMutableBufferPointer { heap in
            var parent = index
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var earliest = parent
                if left < heap.count && heap[left].deadline < heap[earliest].deadline { earliest = left }
                if right < heap.count && heap[right].deadline < heap[earliest].deadline { earliest = right }
                guard earliest != parent else { return }
                Self.swap(parent, earliest, in: heap, &positions)
                parent = earliest
            }
        }
    }

    /// Swaps two entries and records their new places.
    private static func swap(
        _ a: Int, _ b: Int, in heap: UnsafeMutableBufferPointer<Entry>, _ positions: inout Positions
    ) {
        heap.swapAt(a, b)
        positions.set(heap[a].id, at: a)
        positions.set(heap[b].id, at: b)
    }
}
