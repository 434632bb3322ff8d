import Foundation

/// What SHA-1 and SHA-256 share (FIPS 180-4): the message padded to whole 64-byte blocks ending in its length in
/// bits (§5.1.1), each block read as sixteen big-endian 32-bit words (§5.2.1), the hash value written out big-endian
/// (§6.1.2, §6.2.2).
package enum DigestBlocks {
    /// `message`, a 0x80 byte, zeros up to 56 bytes into a block, then the message's length in bits (64 bits,
    /// big-endian): a whole number of 64-byte blocks.
    package static func padded(_ message: Data) -> [UInt8] {
        var padded = [UInt8](message)
        let bitLength = UInt64(message.count) &* 8
        padded.append(0x80)
        while padded.count % 64 != 56 { padded.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            padded.append(UInt8(truncatingIfNeeded: bitLength >> shift))
        }
        return padded
    }

    /// Reads the 64-byte block at `block` of `padded` into the first sixteen words of `w`.
    package static func load(_ padded: [UInt8], block: Int, into w: inout [UInt32]) {
        for t in 0..<16 {
            let i = block + t * 4
            w[t] =
                UInt32(padded[i]) << 24 | UInt32(padded[i + 1]) << 16 | UInt32(padded[i + 2]) << 8
                | UInt32(padded[i + 3])
        }
    }

    /// The hash value's words, each written big-endian.
    package static func digest(_ words: [UInt32]) -> Data {
        var digest = Data(capacity: words.count * 4)
        for word in words {
            for shift in stride(from: 24, through: 0, by: -8) {
                digest.append(UInt8(truncatingIfNeeded: word >> shift))
            }
        }
        return digest
    }
}
