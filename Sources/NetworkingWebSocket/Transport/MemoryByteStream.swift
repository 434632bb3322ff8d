import Foundation
import NetworkingCore
import NetworkingHTTP

/// Two ends of an in-memory connection, for the mock server and the tests: what one end writes, the other reads, in
/// order. Each direction holds at most `capacity` bytes unread; a write beyond it waits for the reader, as a socket's
/// buffers make a writer wait, so a slow reader's memory stays bounded here as on a network.
package final class MemoryByteStream: WebSocketByteStream {
    private struct Direction {
        var chunks: [Data] = []
        var buffered = 0
        var closed = false
        var reader: CheckedContinuation<Data?, any Error>?
        var writers: [CheckedContinuation<Void, any Error>] = []
    }

    private final class Shared: Sendable {
        let capacity: Int
        /// [0]: from the first end to the second; [1]: back.
        let directions = LockedBox([Direction(), Direction()])
        init(capacity: Int) { self.capacity = capacity }
    }

    private let shared: Shared
    private let side: Int

    private init(shared: Shared, side: Int) {
        self.shared = shared
        self.side = side
    }

    /// A connected pair: the client's end and the server's.
    package static func pair(capacity: Int = 256 * 1024) -> (client: MemoryByteStream, server: MemoryByteStream) {
        let shared = Shared(capacity: max(1, capacity))
        return (MemoryByteStream(shared: shared, side: 0), MemoryByteStream(shared: shared, side: 1))
    }

    /// Whether this end's peer has closed, or this end has.
    package var isClosed: Bool { shared.directions.withLock { $0[side].closed } }

    /// The bytes written to this end's peer and not read yet.
    package var unreadByteCount: Int { shared.directions.withLock { $0[side].buffered } }

    package func read() async throws -> Data? {
        let incoming = 1 - side
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                let (result, writers): (Result<Data?, any Error>?, [CheckedContinuation<Void, any Error>]) =
                    shared.directions.withLock { directions in
                        if Task.isCancelled { return (.failure(CancellationError()), []) }
                        if !directions[incoming].chunks.isEmpty {
                            let chunk = directions[incoming].chunks.removeFirst()
                            directions[incoming].buffered -= chunk.count
                            let waiting = directions[incoming].writers
                            directions[incoming].writers = []
                            return (.success(chunk), waiting)
                        }
                        if directions[incoming].closed { return (.success(nil), []) }
                        directions[incoming].reader = continuation
                        return (nil, [])
                    }
                for writer in writers { writer.resume() }
                if let result { continuation.resume(with: result) }
            }
        } onCancel: {
            let reader = shared.directions.withLock { directions in
                defer { directions[incoming].reader = nil }
                return directions[incoming].reader
            }
            reader?.resume(throwing: CancellationError())
        }
    }

    package func write(_ bytes: Data) async throws {
        guard !bytes.isEmpty else { return }
        while true {
            let outcome: Result<Bool, any Error> = shared.directions.withLock { directions in
                if directions[side].closed {
                    return .failure(TransportError(.connectionLost, "the in-memory connection is closed"))
                }
                if let reader = directions[side].reader {
                    directions[side].reader = nil
                    reader.resume(returning: bytes)
                    return .success(true)
                }
                guard directions[side].buffered < shared.capacity else { return .success(false) }
                directions[side].chunks.append(bytes)
                directions[side].buffered += bytes.count
                return .success(true)
            }
            if try outcome.get() { return }
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ready = shared.directions.withLock { directions in
                    if directions[side].buffered < shared.capacity || directions[side].closed { return true }
                    directions[side].writers.append(continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        }
    }

    package func close() {
        let (readers, writers) = shared.directions.withLock { directions in
            let (outgoing, incoming) = (side, 1 - side)
            // This end writes no more (its peer reads what is buffered, then the end), and reads no more: what the
            // peer wrote and this end will never read is dropped, and the peer's writes fail, as on a closed socket.
            directions[outgoing].closed = true
            directions[incoming].closed = true
            directions[incoming].chunks = []
            directions[incoming].buffered = 0
            var readers: [CheckedContinuation<Data?, any Error>] = []
            if let own = directions[incoming].reader { readers.append(own) }
            directions[incoming].reader = nil
            if let peer = directions[outgoing].reader, directions[outgoing].chunks.isEmpty {
                readers.append(peer)
                directions[outgoing].reader = nil
            }
            let writers = directions[0].writers + directions[1].writers
            directions[0].writers = []
            directions[1].writers = []
            return (readers, writers)
        }
        for reader in readers { reader.resume(returning: nil) }
        for writer in writers { writer.resume() }
    }
}
