import Foundation
import NetworkingHTTP
import NetworkingCore

/// Splits a byte stream into lines ended by CR, LF or CRLF, whichever way the bytes are chunked.
///
/// A CR at the end of one chunk followed by an LF at the start of the next is one line end, not two. Bytes of an
/// unfinished line are buffered until its end arrives; complete lines inside a chunk are handed over without a copy.
struct LineSplitter: Sendable {
    private var pending: [UInt8] = []
    private var skipLeadingLineFeed = false

    /// Whether bytes of an unfinished line are buffered.
    var hasPendingBytes: Bool { !pending.isEmpty }

    /// Feeds `chunk` and calls `line` with each line it completes (without its line end), in order.
    mutating func push(_ chunk: Data, line: (UnsafeBufferPointer<UInt8>) -> Void) {
        chunk.withUnsafeBytes { raw in
            push(raw.bindMemory(to: UInt8.self), line: line)
        }
    }

    /// Feeds `bytes` and calls `line` with each line they complete (without its line end), in order.
    mutating func push(_ bytes: UnsafeBufferPointer<UInt8>, line: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard let base = bytes.baseAddress else { return }
        var start = 0
        let count = bytes.count
        if skipLeadingLineFeed, count > 0 {
            skipLeadingLineFeed = false
            if base[0] == 0x0A { start = 1 }
        }
        var index = start
        while index < count {
            let byte = base[index]
            if byte == 0x0A || byte == 0x0D {
                let piece = UnsafeBufferPointer(start: base + start, count: index - start)
                if pending.isEmpty {
                    line(piece)
                } else {
                    pending.append(contentsOf: piece)
                    pending.withUnsafeBufferPointer { line($0) }
                    pending.removeAll(keepingCapacity: true)
                }
                if byte == 0x0D {
                    if index + 1 < count {
                        if base[index + 1] == 0x0A { index += 1 }
                    } else {
                        skipLeadingLineFeed = true
                    }
                }
                start = index + 1
            }
            index += 1
        }
        if start < count {
            pending.append(contentsOf: UnsafeBufferPointer(start: base + start, count: count - start))
        }
    }

    /// Ends the stream: calls `line` with the unfinished last line, if any bytes of it arrived.
    mutating func finish(line: (UnsafeBufferPointer<UInt8>) -> Void) {
        skipLeadingLineFeed = false
        guard !pending.isEmpty else { return }
        pending.withUnsafeBufferPointer { line($0) }
        pending.removeAll()
    }
}
