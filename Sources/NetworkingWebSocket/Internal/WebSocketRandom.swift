import Foundation

/// Where the random bytes of a connection come from: the handshake's nonce (RFC 6455 §4.1) and every frame's masking
/// key (§5.3), which must be unpredictable. The system's generator in use; a test gives its own, to assert the bytes
/// on the wire.
package struct WebSocketRandom: Sendable {
    private let generate: @Sendable (Int) -> [UInt8]

    /// A source of its own, such as a fixed sequence in a test.
    package init(_ generate: @escaping @Sendable (Int) -> [UInt8]) {
        self.generate = generate
    }

    /// The system's cryptographically secure generator (`SystemRandomNumberGenerator`: getrandom on Linux,
    /// arc4random on Apple platforms).
    package static let system = WebSocketRandom { count in
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// `count` random bytes.
    package func bytes(_ count: Int) -> [UInt8] { generate(count) }
}
