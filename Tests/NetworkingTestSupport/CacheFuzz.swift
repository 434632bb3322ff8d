import Foundation

/// Random and mutated header values from a seeded generator, for the cache parsers' hostile-input tests.
package enum CacheFuzz {
    /// Pieces real and broken header values are made of.
    package static let pieces = [
        "max-age", "=", "60", "no-cache", "no-store", ",", " ", "\t", "\"", "\\", "private", "public",
        "must-revalidate", "s-maxage", "-1", "99999999999999999999999", "Sun", ",", "06", "Nov", "1994", "08:49:37",
        "GMT", "Sunday", "06-Nov-94", "24:00:00", "31", "Feb", "0", ":", "\u{0}", "é", "🙂", "W/", "*", ";", "Age",
    ]

    /// `count` values, alternately assembled from ``pieces`` and made by mutating one of `seeds` byte by byte.
    package static func values(count: Int, seeds: [String], seed: UInt64) -> [String] {
        var random = BehaviorFakes.SeededGenerator(seed: seed)
        return (0..<count).map { index in
            if index % 2 == 0 {
                let length = Int.random(in: 0...12, using: &random)
                return (0..<length).map { _ in pieces.randomElement(using: &random) ?? "" }.joined()
            }
            var bytes = Array((seeds.randomElement(using: &random) ?? "").utf8)
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0 where !bytes.isEmpty: bytes.remove(at: position)
                case 1: bytes.insert(UInt8.random(in: 0...255, using: &random), at: position)
                default: if !bytes.isEmpty { bytes[position] = UInt8.random(in: 0...255, using: &random) }
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
