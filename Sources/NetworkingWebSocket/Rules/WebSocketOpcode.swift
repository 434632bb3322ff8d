import Foundation

/// The frame opcodes RFC 6455 defines (§5.2, registry §11.8); 0x3–0x7 and 0xB–0xF are reserved.
package enum WebSocketOpcode: UInt8, Sendable, Hashable {
    /// A later frame of a fragmented message (§5.4).
    case continuation = 0x0
    /// The first frame of a text message.
    case text = 0x1
    /// The first frame of a binary message.
    case binary = 0x2
    /// The closing handshake (§5.5.1).
    case close = 0x8
    /// A ping, answered with a pong of the same payload (§5.5.2).
    case ping = 0x9
    /// A pong (§5.5.3).
    case pong = 0xA

    /// Whether frames of this opcode are control frames (the high bit of the opcode, §5.5): at most 125 bytes of
    /// payload, never fragmented, allowed between the fragments of a message.
    package var isControl: Bool { rawValue & 0x8 != 0 }
}

/// A peer broke RFC 6455: the connection fails with `code` in the close frame sent back (§7.1.7), and `reason`,
/// which names the section broken, in the error the caller gets.
package struct WebSocketProtocolViolation: Error, Sendable, Hashable, CustomStringConvertible {
    /// The close code sent: 1002 for framing, 1007 for text that is not UTF-8, 1009 for a message over the limit.
    package let code: WebSocketCloseCode
    /// What was wrong, with the RFC section.
    package let reason: String

    package init(_ code: WebSocketCloseCode, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    package var description: String { "\(reason) (closed with \(code))" }
}
