import Foundation
import Networking
import Testing
import NetworkingTestSupport

/// What a body keeps in memory: only the chunks its reader has not read, whatever the reader's pace.
@Suite struct BodyMemoryTests {
    /// Chunks whose storage reports when it is freed, so a test sees which ones something still holds.
    final class ChunkFactory: Sendable {
        let live = LockedBox(Set<Int>())

        func make(_ index: Int, size: Int = 1024) -> Data {
            let pointer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 1)
            pointer.initializeMemory(as: UInt8.self, repeating: UInt8(truncatingIfNeeded: index), count: size)
            live.withLock { _ = $0.insert(index) }
            return Data(
                bytesNoCopy: pointer, count: size,
                deallocator: .custom { [live] pointer, _ in
                    pointer.deallocate()
                    live.withLock { _ = $0.remove(index) }
                })
        }
    }

    @Test func aReaderAlwaysOneChunkBehindHoldsOnlyWhatItHasNotRead() async throws {
        // Given a producer that stays one chunk ahead of the reader for 2,000 chunks: the reader never catches up
        let factory = ChunkFactory()
        let (stream, continuation) = HTTPBody.makeStream(bufferLimit: 64 * 1024)
        var iterator = stream.makeAsyncIterator()
        continuation.yield(factory.make(0))
        var mostLive = 0
        for index in 1..<2_000 {
            continuation.yield(factory.make(index))
            let chunk = try await iterator.next()
            #expect(chunk?.first == UInt8(truncatingIfNeeded: index - 1))
            mostLive = max(mostLive, factory.live.withLock { $0.count })
        }
        // Then each chunk is freed once read: at most the unread one and the one just read are alive at a time
        #expect(mostLive <= 2)
        #expect(factory.live.withLock { $0 == [1_999] })
        continuation.finish()
        #expect(try await iterator.next()?.first == UInt8(truncatingIfNeeded: 1_999))
        #expect(try await iterator.next() == nil)
    }

    @Test func aReaderBehindByHalfTheBufferHoldsAtMostTheBuffer() async throws {
        // Given 32 chunks of 1 KiB buffered ahead of the reader (limit 64 KiB), then one in and one out, 5,000 times
        let factory = ChunkFactory()
        let (stream, continuation) = HTTPBody.makeStream(bufferLimit: 64 * 1024)
        var iterator = stream.makeAsyncIterator()
        for index in 0..<32 { continuation.yield(factory.make(index)) }
        var mostLive = 0
        for index in 32..<5_032 {
            continuation.yield(factory.make(index))
            _ = try await iterator.next()
            mostLive = max(mostLive, factory.live.withLock { $0.count })
        }
        // Then what is alive is what is buffered (32 or 33 chunks), never what was read
        #expect(mostLive <= 33)
        continuation.finish(throwing: CancellationError())
    }

    @Test func theQueueKeepsItsSlotsBoundedByWhatIsUnread() {
        // A queue fed one ahead of its reader for 10,000 chunks keeps at most the compaction step of slots, not 10,000
        var queue = ChunkQueue()
        queue.append(Data([0]))
        var mostSlots = 0
        for index in 1..<10_000 {
            queue.append(Data([UInt8(truncatingIfNeeded: index)]))
            #expect(queue.popFirst() == Data([UInt8(truncatingIfNeeded: index - 1)]))
            mostSlots = max(mostSlots, queue.slotCount)
        }
        #expect(queue.count == 1)
        #expect(mostSlots <= 2 + 32)
        // Fed 100 ahead, then read down, the slots stay within twice what is unread plus the compaction step
        for index in 0..<100 { queue.append(Data([UInt8(index)])) }
        for _ in 0..<90 {
            _ = queue.popFirst()
            #expect(queue.slotCount <= 2 * queue.count + 32)
        }
        #expect(Array(queue.removeAll()).count == 11)
        #expect(queue.isEmpty)
        #expect(queue.popFirst() == nil)
    }
}
