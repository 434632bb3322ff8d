import Foundation

/// The chunks a body holds for its reader, oldest first.
///
/// A chunk leaves the queue, and its memory is released, as soon as it is read: what the queue keeps is what the
/// reader has not read yet, whatever its pace. (An array with a read index that was reset only once the reader
/// had caught up kept every chunk read in the meantime: a reader always a little behind the network held the whole
/// body.) Read slots are dropped from the front once they are half the storage, so each chunk is moved at most once
/// on average.
package struct ChunkQueue {
    private var storage: [Data] = []
    private var head = 0

    package init() {}

    /// Whether no chunk is waiting to be read.
    package var isEmpty: Bool { head == storage.count }

    /// The number of chunks waiting to be read.
    package var count: Int { storage.count - head }

    /// The slots the storage holds, read ones included: at most twice ``count`` plus a small constant.
    package var slotCount: Int { storage.count }

    /// Adds a chunk at the end.
    package mutating func append(_ chunk: Data) {
        storage.append(chunk)
    }

    /// Takes the oldest chunk, releasing its slot; `nil` when the queue is empty.
    package mutating func popFirst() -> Data? {
        guard head < storage.count else { return nil }
        let chunk = storage[head]
        storage[head] = Data()
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return chunk
    }

    /// Takes every chunk at once, oldest first, leaving the queue empty.
    package mutating func removeAll() -> ArraySlice<Data> {
        defer {
            storage = []
            head = 0
        }
        return storage[head...]
    }
}
