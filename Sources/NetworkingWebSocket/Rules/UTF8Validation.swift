import Foundation

/// An incremental UTF-8 check (RFC 3629 §4, the grammar RFC 6455 §8.1 requires of text): bytes are fed as they
/// arrive, in any cut, and the first byte that cannot continue well-formed UTF-8 fails at once, so a text message is
/// refused before its end arrives (fail fast). Overlong forms, surrogates (U+D800–U+DFFF) and code points above
/// U+10FFFF are refused.
package struct UTF8Validation: Sendable, Hashable {
    /// Continuation bytes still needed by the sequence in progress.
    private var needed = 0
    /// The range the next continuation byte must fall in (narrower after E0, ED, F0 and F4).
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    package init() {}

    /// Whether the bytes fed so far end on a character boundary: a text message must, at its end.
    package var isComplete: Bool { needed == 0 }

    /// Feeds `bytes`; returns `false` as soon as one cannot continue well-formed UTF-8 (the state is then spent).
    package mutating func feed<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        var state = self
        if let result = bytes.withContiguousStorageIfAvailable({ state.feed($0) }) {
            self = state
            return result
        }
        for byte in bytes where !step(byte) { return false }
        return true
    }

    private mutating func feed(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = buffer.count
        while index < count {
            // ASCII runs, eight bytes at a time, while no sequence is open.
            if needed == 0 {
                while index + 8 <= count {
                    let word = UnsafeRawPointer(buffer.baseAddress! + index).loadUnaligned(as: UInt64.self)
                    if word & 0x8080_8080_8080_8080 != 0 { break }
                    index += 8
                }
                if index >= count { break }
            }
            if !step(buffer[index]) { return false }
            index += 1
        }
        return true
    }

    private mutating func step(_ byte: UInt8) -> Bool {
        if needed > 0 {
            guard byte >= lower, byte <= upper else { return false }
            needed -= 1
            (lower, upper) = (0x80, 0xBF)
            return true
        }
        switch byte {
        case 0x00...0x7F: return true
        case 0xC2...0xDF: needed = 1
        case 0xE0: (needed, lower) = (2, 0xA0)
        case 0xE1...0xEC, 0xEE...0xEF: needed = 2
        case 0xED: (needed, upper) = (2, 0x9F)
        case 0xF0: (needed, lower) = (3, 0x90)
        case 0xF1...0xF3: needed = 3
        case 0xF4: (needed, upper) = (3, 0x8F)
        default: return false
        }
        return true
    }
}
