import Foundation
import NetworkingHTTP
import NetworkingCore

/// The lines of an async sequence of byte chunks, as returned by `AsyncSequence.lines`.
///
/// It applies ``LineDecoder`` to each chunk: lines end with LF, CRLF or CR (split across chunks or not), come
/// without their line end, and the last line is yielded even without a line end. Errors of the base sequence are
/// rethrown after the lines completed before them.
public struct DataLineSequence<Base: AsyncSequence>: AsyncSequence where Base.Element == Data {
    /// A line of text.
    public typealias Element = String

    private let base: Base

    /// Creates the sequence of lines of `base`.
    /// - Parameter base: An async sequence of byte chunks.
    public init(_ base: Base) {
        self.base = base
    }

    /// Creates an iterator over the lines.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator())
    }

    /// Iterates over the lines of the chunks, reading a chunk only when no decoded line is waiting.
    public struct Iterator: AsyncIteratorProtocol {
        private var base: Base.AsyncIterator
        private var decoder = LineDecoder()
        private var ready: [String] = []
        private var readyIndex = 0
        private var finished = false

        fileprivate init(base: Base.AsyncIterator) {
            self.base = base
        }

        /// The next line, or `nil` at the end of the chunks.
        /// - Throws: The error of the base sequence, after the lines completed before it.
        public mutating func next() async throws -> String? {
            while readyIndex == ready.count {
                guard !finished else { return nil }
                ready.removeAll(keepingCapacity: true)
                readyIndex = 0
                if let chunk = try await base.next() {
                    ready = decoder.decode(chunk)
                } else {
                    finished = true
                    ready = decoder.finish()
                }
            }
            defer { readyIndex += 1 }
            return ready[readyIndex]
        }
    }
}

extension DataLineSequence: Sendable where Base: Sendable {}
