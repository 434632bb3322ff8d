import Foundation
import NetworkingHTTP
import NetworkingCore

/// Writes a download's body into its partial file as it arrives: chunks are gathered into writes of
/// ``flushBytes`` (a few large writes instead of one per network read), and the progress is reported for each
/// chunk, as the bytes received for the file. At most ``flushBytes`` is held in memory, whatever
/// the size of the body; ``close()`` writes the rest, after a failure too.
final class DownloadWriter: Sendable {
    /// The bytes gathered before a write: 128 KiB (8 network reads), large enough that the system calls cost
    /// little next to the copy, small enough to keep memory flat.
    static let flushBytes = 128 * 1024

    private struct State {
        var handle: FileHandle?
        var pending = Data()
        var written: Int64
        var received: Int64
        var peakPendingBytes = 0
        var failure: DownloadFileError?
    }

    private let state: LockedBox<State>
    private let partial: PartialDownload
    private let reporter: TransferProgressReporter?
    private let expected: Int64?

    /// Creates a writer that appends to `handle`, whose file already holds `written` bytes.
    init(
        handle: FileHandle, partial: PartialDownload, written: Int64, expected: Int64?,
        reporter: TransferProgressReporter?
    ) {
        var state = State(handle: handle, written: written, received: written)
        state.pending.reserveCapacity(Self.flushBytes)
        self.state = LockedBox(state)
        self.partial = partial
        self.reporter = reporter
        self.expected = expected
    }

    /// Takes the next chunk of the body; writes once ``flushBytes`` are gathered.
    ///
    /// - Throws: ``DownloadFileError`` when the write fails (and every later call fails the same way).
    func append(_ chunk: Data) throws {
        let received: Int64 = try state.withLock { state in
            if let failure = state.failure { throw failure }
            state.received += Int64(chunk.count)
            // A chunk that would not fit goes after a write of what is gathered, and one as large as a write goes
            // alone: the gathering buffer never grows past its capacity.
            if state.pending.count + chunk.count > Self.flushBytes, !state.pending.isEmpty {
                try write(state.pending, &state)
                state.pending.removeAll(keepingCapacity: true)
            }
            if state.pending.isEmpty, chunk.count >= Self.flushBytes {
                try write(chunk, &state)
                return state.received
            }
            state.pending.append(chunk)
            state.peakPendingBytes = max(state.peakPendingBytes, state.pending.count)
            guard state.pending.count >= Self.flushBytes else { return state.received }
            try write(state.pending, &state)
            state.pending.removeAll(keepingCapacity: true)
            return state.received
        }
        reporter?.report(completedBytes: received, expectedBytes: expected)
    }

    /// Writes what is gathered and closes the file (also after a failure, so a resume finds every byte received).
    ///
    /// - Returns: The bytes in the file.
    /// - Throws: ``DownloadFileError`` when the write fails or an earlier one did.
    @discardableResult
    func close() throws -> Int64 {
        let written: Int64 = try state.withLock { state in
            defer {
                try? state.handle?.close()
                state.handle = nil
                state.pending = Data()
            }
            if let failure = state.failure { throw failure }
            if !state.pending.isEmpty { try write(state.pending, &state) }
            return state.written
        }
        reporter?.report(completedBytes: written, expectedBytes: expected)
        return written
    }

    /// The error of a failed write, if one failed.
    var failure: DownloadFileError? { state.withLock { $0.failure } }

    /// The most bytes ever held before a write.
    var peakPendingBytes: Int { state.withLock { $0.peakPendingBytes } }

    private func write(_ data: Data, _ state: inout State) throws {
        guard let handle = state.handle else {
            let error = DownloadFileError(
                operation: .write, path: partial.partialURL.path, reason: "the file is closed")
            state.failure = error
            throw error
        }
        do {
            try partial.write(data, to: handle)
            state.written += Int64(data.count)
        } catch let error as DownloadFileError {
            state.failure = error
            throw error
        }
    }
}
