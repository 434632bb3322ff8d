import Foundation

/// Frames as they go on the wire (RFC 6455 §5.2): what the client sends, and, with no mask, what a server sends (the
/// mock and the tests' peers).
package enum WebSocketFrameEncoding {
    /// The bytes of one frame.
    ///
    /// - Parameters:
    ///   - opcode: The opcode's value (a reserved one too, for tests of a peer's refusal).
    ///   - payload: The payload, unmasked.
    ///   - fin: Whether this is the last frame of its message.
    ///   - reserved: The three RSV bits (`0b100` is RSV1); zero unless an extension says otherwise.
    ///   - maskKey: The masking key (§5.3): four bytes, a fresh random one per frame, for every frame a client sends;
    ///     `nil` for a server's frames.
    /// - Returns: The header, the masking key if any, and the payload, masked.
    package static func frame(
        opcode: UInt8, payload: Data, fin: Bool = true, reserved: UInt8 = 0, maskKey: [UInt8]? = nil
    ) -> Data {
        var bytes = [UInt8]()
        bytes.reserveCapacity(payload.count + 14)
        bytes.append((fin ? 0x80 : 0) | (reserved & 0x7) << 4 | opcode & 0x0F)
        let maskBit: UInt8 = maskKey == nil ? 0 : 0x80
        // §5.2: the payload length in 7 bits, or 126 and 16 bits, or 127 and 64 bits (most significant bit 0); the
        // minimal form is always used.
        switch payload.count {
        case 0...125:
            bytes.append(maskBit | UInt8(payload.count))
        case 126...0xFFFF:
            bytes.append(maskBit | 126)
            bytes.append(UInt8(payload.count >> 8))
            bytes.append(UInt8(payload.count & 0xFF))
        default:
            bytes.append(maskBit | 127)
            let length = UInt64(payload.count)
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: length >> shift))
            }
        }
        guard let maskKey, maskKey.count == 4 else {
            bytes.append(contentsOf: payload)
            return Data(bytes)
        }
        bytes.append(contentsOf: maskKey)
        let start = bytes.count
        bytes.append(contentsOf: payload)
        bytes.withUnsafeMutableBufferPointer { buffer in
            applyMask(maskKey, to: UnsafeMutableBufferPointer(rebasing: buffer[start...]), offset: 0)
        }
        return Data(bytes)
    }

    /// XORs `buffer` with `key` (§5.3), starting at byte `offset` of the frame's payload; the same operation masks
    /// and unmasks. Eight bytes at a time where it can.
    package static func applyMask(_ key: [UInt8], to buffer: UnsafeMutableBufferPointer<UInt8>, offset: Int) {
        guard !buffer.isEmpty, let base = buffer.baseAddress else { return }
        var rotated = [UInt8](repeating: 0, count: 8)
        for i in 0..<8 { rotated[i] = key[(offset + i) & 3] }
        let pattern = rotated.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        var index = 0
        let raw = UnsafeMutableRawPointer(base)
        while index + 8 <= buffer.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ pattern
            raw.storeBytes(of: word, toByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < buffer.count {
            base[index] ^= key[(offset + index) & 3]
            index += 1
        }
    }

    /// The payload of a close frame (§5.5.1): the code in two bytes, then the reason in UTF-8; empty for no code.
    package static func closePayload(_ code: WebSocketCloseCode?, reason: String) -> Data {
        guard let code else { return Data() }
        var payload = Data([UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)])
        payload.append(contentsOf: reason.utf8)
        return payload
    }

    /// `reason` cut to the 123 bytes a close frame leaves it (§5.5: 125 bytes of payload, 2 of them the code), at a
    /// character boundary.
    package static func fittingCloseReason(_ reason: String) -> String {
        guard reason.utf8.count > 123 else { return reason }
        var cut = ""
        for character in reason {
            if cut.utf8.count + character.utf8.count > 123 { break }
            cut.append(character)
        }
        return cut
    }
}
