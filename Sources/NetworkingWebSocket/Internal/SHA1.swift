import Foundation
import NetworkingHTTP

/// SHA-1 (FIPS 180-4 §6.1), for the one place RFC 6455 needs it: `Sec-WebSocket-Accept` (§4.2.2). Foundation on
/// Linux has no digest API and the package takes no dependency, so the ~40 lines live here, beside the SHA-256 of
/// NetworkingHTTP; the tests check it against published vectors. Not for anything that needs collision resistance.
package enum SHA1 {
    /// The 20-byte digest of `message`.
    package static func digest(_ message: Data) -> Data {
        var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        let padded = DigestBlocks.padded(message)
        var w = [UInt32](repeating: 0, count: 80)
        for block in stride(from: 0, to: padded.count, by: 64) {
            DigestBlocks.load(padded, block: block, into: &w)
            for t in 16..<80 { w[t] = rotate(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1) }
            var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
            for t in 0..<80 {
                let (f, k): (UInt32, UInt32) =
                    switch t {
                    case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
                    case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
                    case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                    default: (b ^ c ^ d, 0xCA62_C1D6)
                    }
                let temp = rotate(a, 5) &+ f &+ e &+ k &+ w[t]
                (e, d, c, b, a) = (d, c, rotate(b, 30), a, temp)
            }
            h[0] &+= a
            h[1] &+= b
            h[2] &+= c
            h[3] &+= d
            h[4] &+= e
        }
        return DigestBlocks.digest(h)
    }

    private static func rotate(_ x: UInt32, _ n: UInt32) -> UInt32 { (x << n) | (x >> (32 - n)) }
}
