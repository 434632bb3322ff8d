import Foundation
import NetworkingHTTP

/// Call ids without a system call per call: a random 128-bit key drawn once per process, mixed with a counter.
///
/// Each half is a bijection of the counter, so two calls of one process share an id only if both halves collide
/// after the six version bits are set (odds about 2^-122), and ids are unpredictable without the key: what an
/// idempotency key or a log correlation id needs. `UUID()` reads the system's random source on
/// every call, a measurable share of an in-memory request.
package enum CallIDs {
    private static let key: (UInt64, UInt64) = {
        var generator = SystemRandomNumberGenerator()
        return (generator.next(), generator.next())
    }()
    private static let counter = LockedBox<UInt64>(0)

    /// A new id, shaped as a version-4 UUID.
    package static func next() -> UUID {
        let count = counter.withLock { value -> UInt64 in
            value &+= 1
            return value
        }
        let high = mix(key.0 ^ count)
        var low = mix(key.1 &+ count)
        // Version 4 and the RFC 4122 variant, as `UUID()` would set them.
        low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let versioned = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        let a = withUnsafeBytes(of: versioned.bigEndian) { Array($0) }
        let b = withUnsafeBytes(of: low.bigEndian) { Array($0) }
        return UUID(
            uuid: (a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]))
    }

    /// SplitMix64's finaliser: a bijection on 64-bit values that spreads every input bit.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
