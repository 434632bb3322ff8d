import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

/// `HTTPBody` alone: the bounded buffer, backpressure, the end, cancellation and its observers.
@Suite struct HTTPBodyTests {
    static func bytes(_ count: Int) -> Data { Data(repeating: 7, count: count) }

    @Test func chunksArriveInOrderThenTheEnd() async throws {
        let (stream, continuation) = HTTPBody.makeStream()
        continuation.yield(Data("ab".utf8))
        continuation.yield(Data("cd".utf8))
        continuation.finish()
        var text = ""
        for try await chunk in stream { text += String(decoding: chunk, as: UTF8.self) }
        #expect(text == "abcd")
    }

    @Test func aFullBufferTellsTheProducerToWaitUntilTheReaderDrainsHalf() async throws {
        let demands = LockedBox(0)
        let (stream, continuation) = HTTPBody.makeStream(
            bufferLimit: 100, onDemand: { demands.withLock { $0 += 1 } })
        #expect(continuation.yield(Self.bytes(40)) == true)
        #expect(continuation.yield(Self.bytes(40)) == true)
        #expect(continuation.yield(Self.bytes(40)) == false)  // 120 buffered: full
        var iterator = stream.makeAsyncIterator()
        _ = try await iterator.next()  // 80 left: above half
        #expect(demands.current == 0)
        _ = try await iterator.next()  // 40 left: at most half, the producer may go on
        #expect(demands.current == 1)
        #expect(continuation.yield(Self.bytes(10)) == true)
    }

    @Test func aBodyNobodyHasReadYetBuffersOnlyTheUnreadLimitThenItsOwnOnceRead() async throws {
        // Given a body with the default limit (1 MiB) and 16 KiB chunks arriving before anyone reads
        let demands = LockedBox(0)
        let (stream, continuation) = HTTPBody.makeStream(onDemand: { demands.withLock { $0 += 1 } })
        let chunk = Self.bytes(16 * 1024)
        var accepted = 1
        while continuation.yield(chunk) { accepted += 1 }
        // Then the producer is told to wait at 128 KiB, not at the 1 MiB limit
        #expect(accepted * chunk.count == BodyBuffer.unreadLimit)
        // And once the reader takes a chunk, the producer may go on up to the body's own limit
        var iterator = stream.makeAsyncIterator()
        _ = try await iterator.next()
        #expect(demands.current == 1)
        var more = 1
        while continuation.yield(chunk) { more += 1 }
        #expect((accepted - 1 + more) * chunk.count == HTTPBody.defaultBufferLimit)
    }

    @Test func anAsyncProducerWaitsForRoomWhileTheReaderIsSlow() async throws {
        let (stream, continuation) = HTTPBody.makeStream(bufferLimit: 64)
        let produced = LockedBox(0)
        let producer = Task {
            for _ in 0..<100 {
                produced.withLock { $0 += 16 }
                try await continuation.send(Self.bytes(16))
            }
            continuation.finish()
        }
        // The reader reads nothing: the producer stops once the buffer holds its limit.
        try await BehaviorFakes.waitUntil { produced.current >= 64 }
        for _ in 0..<100 { await Task.yield() }
        #expect(produced.current == 64)
        var total = 0
        for try await chunk in stream { total += chunk.count }
        #expect(total == 1600)
        try await producer.value
    }

    @Test func anErrorReachesTheReaderAfterTheBufferedChunks() async throws {
        let (stream, continuation) = HTTPBody.makeStream()
        continuation.yield(Data("a".utf8))
        continuation.finish(throwing: TransportError(.connectionLost, "cut"))
        var iterator = stream.makeAsyncIterator()
        #expect(try await iterator.next() == Data("a".utf8))
        await #expect(throws: TransportError.self) { try await iterator.next() }
    }

    @Test func observersLearnHowTheStreamEndedAndTheBytesRead() async throws {
        let (stream, continuation) = HTTPBody.makeStream()
        let seen = LockedBox<(String, Int64)?>(nil)
        stream.onTermination { termination in
            let outcome =
                switch termination.outcome {
                case .finished: "finished"
                case .failed: "failed"
                case .cancelled: "cancelled"
                }
            seen.withLock { $0 = (outcome, termination.byteCount) }
        }
        continuation.yield(Self.bytes(5))
        continuation.finish()
        #expect(seen.current == nil)  // the reader has not had the chunk yet
        for try await _ in stream {}
        #expect(seen.current?.0 == "finished")
        #expect(seen.current?.1 == 5)
    }

    @Test func cancellingTheReadingTaskCancelsTheStreamAndTellsTheProducer() async throws {
        let (stream, continuation) = HTTPBody.makeStream()
        let ended = LockedBox(false)
        continuation.onTermination { termination in
            if case .cancelled = termination.outcome { ended.withLock { $0 = true } }
        }
        let reader = Task { for try await _ in stream {} }
        reader.cancel()
        await #expect(throws: CancellationError.self) { try await reader.value }
        #expect(ended.current)
        #expect(continuation.yield(Self.bytes(1)) == false)
    }

    @Test func aCancelledReaderGetsCancellationEvenWithAChunkWaiting() async throws {
        // Given a chunk already buffered
        let (stream, continuation) = HTTPBody.makeStream()
        let ended = LockedBox(false)
        continuation.onTermination { termination in
            if case .cancelled = termination.outcome { ended.withLock { $0 = true } }
        }
        continuation.yield(Data("a".utf8))
        // When a reader whose task is cancelled asks for it
        let reader = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var iterator = stream.makeAsyncIterator()
            return try await iterator.next()
        }
        // Then it gets CancellationError, not the chunk, and the stream is cancelled
        await #expect(throws: CancellationError.self) { try await reader.value }
        #expect(ended.current)
    }

    @Test func aBodyOfOneChunkIsCollectedAsThatChunkAndOfSeveralJoined() async throws {
        let chunk = Self.bytes(1000)
        let (one, first) = HTTPBody.makeStream(length: 1000)
        first.yield(chunk)
        first.finish()
        let collected = try await one.collect(upTo: 1000)
        #expect(collected == chunk)
        let sameBytes = collected.withUnsafeBytes { a in chunk.withUnsafeBytes { b in a.baseAddress == b.baseAddress } }
        #expect(sameBytes, "a single chunk is not copied")

        let (several, second) = HTTPBody.makeStream(length: 2500)
        for part in [Self.bytes(1000), Data(repeating: 8, count: 1000), Data(repeating: 9, count: 500)] {
            second.yield(part)
        }
        second.finish()
        let joined = try await several.collect(upTo: 2500)
        #expect(joined == Self.bytes(1000) + Data(repeating: 8, count: 1000) + Data(repeating: 9, count: 500))
    }

    @Test func droppingTheStreamCancelsIt() async throws {
        let ended = LockedBox(false)
        var continuation: HTTPBody.Continuation?
        do {
            let made = HTTPBody.makeStream()
            continuation = made.continuation
            made.continuation.onTermination { _ in ended.withLock { $0 = true } }
        }
        #expect(ended.current)
        #expect(continuation?.yield(Self.bytes(1)) == false)
    }

    @Test func streamsAreEqualOnlyToThemselves() {
        let first = HTTPBody.complete([])
        let second = HTTPBody.complete([])
        #expect(first == first)
        #expect(first != second)
        #expect(first.data == nil)
        #expect(first.length == nil)
        #expect(first.isStreaming)
    }

    @Test func aSecondReaderWhileOneWaitsGetsATypedErrorAndTheFirstKeepsReading() async throws {
        let (stream, continuation) = HTTPBody.makeStream()
        let first = Task { try await stream.reduce(0) { $0 + $1.count } }
        try await BehaviorFakes.waitUntil { stream.buffer?.hasWaitingReader == true }
        await #expect(throws: HTTPBody.SecondReaderError.self) { for try await _ in stream {} }
        continuation.yield(Data("ab".utf8))
        continuation.finish()
        #expect(try await first.value == 2)
    }
}
