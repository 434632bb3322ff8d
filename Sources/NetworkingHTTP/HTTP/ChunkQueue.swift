import Foundation

/// The chunks a body holds for its reader, oldest first.
///
/// A chunk leaves the queue, and its memory is released, as soon as it is read: what the queue keeps is what the
/// reader has not read yet, whatever its pace. (An array with a read index that was reset only once the reader
/// had caught up kept every chunk read in the meantime: a reader always a little behind the network held the whole
/// body.) Read slots are dropped from the front once they are half the storage, so each chunk is moved at most once
/// on average.
package struct ChunkQueue {
    /// The oldest chunk, kept apart: a body read as it comes holds one chunk at a time, which then needs no array.
    private var front: Data?
    /// The chunks after ``front``, from `head` on.
    private var storage: [Data] = []
    private var head = 0

    package init() {}

    /// Whether no chunk is waiting to be read.
    package var isEmpty: Bool { front == nil }

    /// The number of chunks waiting to be read.
    package var count: Int { front == nil ? 0 : 1 + storage.count - head }

    /// The slots the storage holds, read ones included: at most twice ``count`` plus a small constant.
    package var slotCount: Int { storage.count + (front == nil ? 0 : 1) }

    /// Adds a chunk at the end.
    package mutating func append(_ chunk: Data) {
        if front == nil {
            front = chunk
        } else {
            storage.append(chunk)
        }
    }

    /// Takes the oldest chunk, releasing its slot; `nil` when the queue is empty.
    package mutating func popFirst() -> Data? {
        guard let chunk = front else { return nil }
        front = nil
        guard head < storage.count else { return chunk }
        front = storage[head]
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
            front = nil
            storage = []
            head = 0
        }
        guard let front else { return [] }
        return [front] + storage[head...]
    }
}
