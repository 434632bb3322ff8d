import Foundation

extension HTTPBody {
    /// Reads a body's chunks: one for bytes in memory, pieces of a file, a producer's chunks, or chunks as they
    /// arrive.
    public struct Iterator: AsyncIteratorProtocol {
        enum Source {
            case bytes(Data?)
            case file(FileChunks)
            case produced(Chunks.AsyncIterator)
            case stream(StreamHandle)
            case failed((any Error)?)
        }

        var source: Source

        /// The next chunk; `nil` at the end of the body.
        ///
        /// - Throws: The producer's or the transfer's error (a `NetworkError` when read from the client), a
        ///   ``ConsumedError`` for a one-time body read twice, or `CancellationError`.
        public mutating func next() async throws -> Data? {
            switch source {
            case .bytes(let data):
                source = .bytes(nil)
                return data.flatMap { $0.isEmpty ? nil : $0 }
            case .file(let file):
                return try file.next()
            case .produced(var iterator):
                let chunk = try await iterator.next()
                source = .produced(iterator)
                return chunk
            case .stream(let handle):
                return try await handle.buffer.next()
            case .failed(let error):
                source = .failed(nil)
                if let error { throw error }
                return nil
            }
        }
    }

    /// A one-time body read a second time: nothing can be sent.
    public struct ConsumedError: Error, Sendable, CustomStringConvertible {
        /// What happened, in a sentence.
        public var description: String { "the body can be sent once and was already consumed" }
    }

    /// Reads the body.
    public func makeAsyncIterator() -> Iterator {
        switch storage {
        case .bytes(let data):
            return Iterator(source: .bytes(data))
        case .file(let url):
            do {
                return Iterator(source: .file(try FileChunks(url)))
            } catch {
                return Iterator(source: .failed(error))
            }
        case .restartable(_, let make, _, _):
            return Iterator(source: .produced(make().makeAsyncIterator()))
        case .once(_, let box):
            let chunks = box.withLock { chunks in
                defer { chunks = nil }
                return chunks
            }
            guard let chunks else { return Iterator(source: .failed(ConsumedError())) }
            return Iterator(source: .produced(chunks.makeAsyncIterator()))
        case .stream(let handle):
            return Iterator(source: .stream(handle))
        }
    }

    /// Reads the whole body into memory.
    ///
    /// - Parameter limit: The most bytes accepted.
    /// - Returns: The bytes.
    /// - Throws: ``TooLargeError`` once the body passes `limit` (a body arriving is then cancelled), or what
    ///   reading threw.
    public func collect(upTo limit: Int) async throws -> Data {
        if let data { return try Self.check(data, limit) }
        var collector = Collector(limit: limit, length: length)
        do {
            if let buffer {
                // Straight from the buffer: the iterator would add an async call per chunk.
                while let chunk = try await buffer.next() { try collector.take(chunk) }
            } else {
                for try await chunk in self { try collector.take(chunk) }
            }
        } catch {
            cancel()
            throw error
        }
        return collector.collected
    }

    /// The bytes of a body read into memory, chunk by chunk, within a limit.
    private struct Collector {
        let limit: Int
        /// The announced length, to make room for at once once a second chunk comes.
        let length: Int64?
        private(set) var collected = Data()
        private var chunks = 0

        init(limit: Int, length: Int64?) {
            self.limit = limit
            self.length = length
        }

        /// Adds `chunk`, or throws ``TooLargeError`` when it would pass the limit.
        mutating func take(_ chunk: Data) throws {
            guard collected.count + chunk.count <= limit else { throw TooLargeError(limit: limit) }
            chunks += 1
            if chunks == 1 {
                // The first chunk as it came: a body of one chunk (most small answers) is neither copied nor given
                // a buffer of its own. A slice of a larger `Data` (a producer's `data[10...]`) is copied, so what is
                // collected starts at index 0 whatever came, as a caller indexing it expects.
                collected = chunk.startIndex == 0 ? chunk : Data(chunk)
                return
            }
            if chunks == 2, let length, length <= limit {
                var whole = Data(capacity: Int(length))
                whole.append(collected)
                collected = whole
            }
            collected.append(chunk)
        }
    }

    private static func check(_ data: Data, _ limit: Int) throws -> Data {
        guard data.count <= limit else { throw TooLargeError(limit: limit) }
        return data
    }

    /// A body arriving was read by a second task while another one waited for it: a body has one reader.
    public struct SecondReaderError: Error, Sendable, CustomStringConvertible {
        /// What happened, in a sentence.
        public var description: String { "a response body has one reader; another is already waiting" }
    }

    /// A body longer than the limit given to ``collect(upTo:)``.
    public struct TooLargeError: Error, Sendable, CustomStringConvertible {
        /// The limit, in bytes.
        public let limit: Int
        /// What happened, in a sentence.
        public var description: String { "the body grew past the limit of \(limit) bytes" }

        /// The error of a body larger than `limit` bytes.
        package init(limit: Int) {
            self.limit = limit
        }
    }

    /// The size of the file at `url`, or `nil` when it cannot be read.
    package static func size(of url: URL) -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
    }
}

/// A file read in chunks of 64 KiB, closed at its end.
package final class FileChunks {
    private static let chunkSize = 64 * 1024
    private var handle: FileHandle?

    package init(_ url: URL) throws {
        handle = try FileHandle(forReadingFrom: url)
    }

    package func next() throws -> Data? {
        guard let handle else { return nil }
        let chunk = try handle.read(upToCount: Self.chunkSize) ?? Data()
        if chunk.isEmpty {
            try? handle.close()
            self.handle = nil
            return nil
        }
        return chunk
    }

    deinit { try? handle?.close() }
}

extension HTTPBody {
    /// What a transport says when a produced body's byte count is not the length it announced: `produced` bytes
    /// (the count at the end, or `nil` when the body went on past `announced`).
    package static func lengthMismatch(produced: Int64?, announced: Int64) -> String {
        guard let produced else { return "the body produced more than the announced \(announced) bytes" }
        return "the body produced \(produced) bytes, not the announced \(announced)"
    }
}

extension HTTPBody.ConsumedError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` reads as well.
    public var errorDescription: String? { description }
}

extension HTTPBody.SecondReaderError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` reads as well.
    public var errorDescription: String? { description }
}

extension HTTPBody.TooLargeError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` reads as well.
    public var errorDescription: String? { description }
}
