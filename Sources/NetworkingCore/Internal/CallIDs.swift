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
        func byte(_ word: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: word >> (56 - 8 * index)) }
        let (a, b) = (versioned, low)
        return UUID(
            uuid: (
                byte(a, 0), byte(a, 1), byte(a, 2), byte(a, 3), byte(a, 4), byte(a, 5), byte(a, 6), byte(a, 7),
                byte(b, 0), byte(b, 1), byte(b, 2), byte(b, 3), byte(b, 4), byte(b, 5), byte(b, 6), byte(b, 7)
            ))
    }

    /// SplitMix64's finaliser: a bijection on 64-bit values that spreads every input bit.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
