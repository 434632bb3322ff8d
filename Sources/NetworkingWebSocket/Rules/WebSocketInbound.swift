import Foundation

/// The receiving half of RFC 6455 as a value: bytes from the peer in, in any cut, and whole messages and control
/// frames out. It reads frame headers (§5.2), unmasks a client's frames when it is the server's side (§5.3),
/// reassembles fragmented messages (§5.4), checks text as UTF-8 while it arrives, frame by frame and within a
/// frame (§8.1, failing fast), and reads close frames (§5.5.1, §7.4). Every breach throws a
/// ``WebSocketProtocolViolation`` with the close code to fail the connection with; after one, or after a close frame,
/// nothing more is read (§5.5.1: nothing follows a close).
package struct WebSocketInbound: Sendable {
    /// What the peer sent, frame by frame reassembled.
    package enum Event: Sendable, Hashable {
        /// A whole data message.
        case message(WebSocketMessage)
        /// A ping and its payload, to answer with a pong of the same payload (§5.5.2).
        case ping(Data)
        /// A pong and its payload (§5.5.3).
        case pong(Data)
        /// A close frame: its code (`nil` when it carried none, reported as 1005) and reason.
        case close(WebSocketCloseCode?, String)
    }

    /// The largest message accepted, reassembled; a bigger one fails with 1009 as soon as its size is announced.
    package let maximumMessageSize: Int
    /// Whether frames must be masked: `true` on a server's side (the mock), `false` on a client's (§5.1).
    package let expectsMaskedFrames: Bool

    private struct Header {
        let fin: Bool
        let opcode: WebSocketOpcode
        var remaining: UInt64
        let mask: [UInt8]?
        var maskOffset = 0
    }

    private struct Partial {
        let isText: Bool
        var data: [UInt8] = []
        var utf8 = UTF8Validation()
    }

    private var buffer: [UInt8] = []
    private var start = 0
    private var frame: Header?
    private var message: Partial?
    private var control: [UInt8] = []
    /// Set by a close frame or a violation: nothing more is read.
    package private(set) var isFinished = false

    /// Creates the reader.
    ///
    /// - Parameters:
    ///   - maximumMessageSize: The largest message accepted, reassembled.
    ///   - expectsMaskedFrames: `true` for a server's side; a client's is `false`.
    package init(maximumMessageSize: Int, expectsMaskedFrames: Bool = false) {
        self.maximumMessageSize = max(0, maximumMessageSize)
        self.expectsMaskedFrames = expectsMaskedFrames
    }

    /// The bytes received and not read yet, a frame's payload excepted (read as it arrives).
    package var bufferedByteCount: Int { buffer.count - start }

    /// Adds bytes received.
    package mutating func append(_ bytes: Data) {
        guard !isFinished else { return }
        if start > 0, start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next event the bytes received so far complete, or `nil` until more arrive.
    ///
    /// - Throws: ``WebSocketProtocolViolation`` when the peer broke the protocol.
    package mutating func next() throws(WebSocketProtocolViolation) -> Event? {
        guard !isFinished else { return nil }
        do {
            return try read()
        } catch {
            isFinished = true
            frame = nil
            message = nil
            buffer = []
            start = 0
            throw error
        }
    }

    private mutating func read() throws(WebSocketProtocolViolation) -> Event? {
        while true {
            if frame == nil {
                guard let header = try readHeader() else { return nil }
                frame = header
            }
            guard var header = frame else { return nil }
            let available = min(header.remaining, UInt64(buffer.count - start))
            if available > 0 {
                let end = start + Int(available)
                var chunk = Array(buffer[start..<end])
                start = end
                if let mask = header.mask {
                    chunk.withUnsafeMutableBufferPointer {
                        WebSocketFrameEncoding.applyMask(mask, to: $0, offset: header.maskOffset)
                    }
                    header.maskOffset += chunk.count
                }
                header.remaining -= available
                if header.opcode.isControl {
                    control.append(contentsOf: chunk)
                } else if var partial = message {
                    message = nil
                    if partial.isText, !partial.utf8.feed(chunk) {
                        throw WebSocketProtocolViolation(
                            .invalidFramePayloadData, "a text message is not UTF-8 (RFC 6455 §8.1)")
                    }
                    partial.data.append(contentsOf: chunk)
                    message = partial
                }
                frame = header
            }
            guard header.remaining == 0 else { return nil }
            frame = nil
            if let event = try complete(header) { return event }
        }
    }

    /// The event a frame whose payload is all here makes, if any.
    private mutating func complete(_ header: Header) throws(WebSocketProtocolViolation) -> Event? {
        switch header.opcode {
        case .ping:
            defer { control = [] }
            return .ping(Data(control))
        case .pong:
            defer { control = [] }
            return .pong(Data(control))
        case .close:
            defer { control = [] }
            let (code, reason) = try Self.readClose(control)
            isFinished = true
            buffer = []
            start = 0
            return .close(code, reason)
        case .text, .binary, .continuation:
            guard header.fin, let partial = message else { return nil }
            message = nil
            if partial.isText {
                guard partial.utf8.isComplete else {
                    throw WebSocketProtocolViolation(
                        .invalidFramePayloadData, "a text message ends inside a UTF-8 sequence (RFC 6455 §8.1)")
                }
                return .message(.text(String(decoding: partial.data, as: UTF8.self)))
            }
            return .message(.binary(Data(partial.data)))
        }
    }

    /// Reads a frame header when all of it is here, checking it against §5.1–§5.5.
    private mutating func readHeader() throws(WebSocketProtocolViolation) -> Header? {
        let available = buffer.count - start
        guard available >= 2 else { return nil }
        let first = buffer[start]
        let second = buffer[start + 1]
        let fin = first & 0x80 != 0
        guard first & 0x70 == 0 else {
            throw WebSocketProtocolViolation(
                .protocolError, "a frame has reserved bits set and no extension was negotiated (RFC 6455 §5.2)")
        }
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
            throw WebSocketProtocolViolation(
                .protocolError, "a frame has the reserved opcode \(first & 0x0F) (RFC 6455 §5.2)")
        }
        let masked = second & 0x80 != 0
        guard masked == expectsMaskedFrames else {
            throw WebSocketProtocolViolation(
                .protocolError,
                masked ? "a server's frame is masked (RFC 6455 §5.1)" : "a client's frame is not masked (RFC 6455 §5.1)"
            )
        }
        let short = second & 0x7F
        if opcode.isControl {
            guard fin else {
                throw WebSocketProtocolViolation(.protocolError, "a control frame is fragmented (RFC 6455 §5.5)")
            }
            guard short <= 125 else {
                throw WebSocketProtocolViolation(
                    .protocolError, "a control frame has more than 125 bytes of payload (RFC 6455 §5.5)")
            }
        }
        let lengthBytes = short == 126 ? 2 : short == 127 ? 8 : 0
        let headerSize = 2 + lengthBytes + (masked ? 4 : 0)
        guard available >= headerSize else { return nil }
        var length = UInt64(short)
        if lengthBytes > 0 {
            length = 0
            for i in 0..<lengthBytes { length = length << 8 | UInt64(buffer[start + 2 + i]) }
            if lengthBytes == 8, length >> 63 != 0 {
                throw WebSocketProtocolViolation(
                    .protocolError, "a frame's 64-bit length has its most significant bit set (RFC 6455 §5.2)")
            }
        }
        let mask = masked ? Array(buffer[(start + 2 + lengthBytes)..<(start + headerSize)]) : nil
        try checkSequence(opcode: opcode, fin: fin, length: length)
        start += headerSize
        return Header(fin: fin, opcode: opcode, remaining: length, mask: mask)
    }

    /// Checks that a data frame fits the message in progress (§5.4) and the size limit (§10.4), and starts a message.
    private mutating func checkSequence(
        opcode: WebSocketOpcode, fin: Bool, length: UInt64
    ) throws(WebSocketProtocolViolation) {
        switch opcode {
        case .continuation:
            guard message != nil else {
                throw WebSocketProtocolViolation(
                    .protocolError, "a continuation frame arrived with no message in progress (RFC 6455 §5.4)")
            }
        case .text, .binary:
            guard message == nil else {
                throw WebSocketProtocolViolation(
                    .protocolError, "a new message began before the last one ended (RFC 6455 §5.4)")
            }
            message = Partial(isText: opcode == .text)
        case .close, .ping, .pong:
            control = []
            return
        }
        let size = UInt64(message?.data.count ?? 0) + length
        guard size <= UInt64(maximumMessageSize) else {
            throw WebSocketProtocolViolation(
                .messageTooBig, "a message exceeds the limit of \(maximumMessageSize) bytes (RFC 6455 §10.4)")
        }
    }

    /// The code and reason of a close frame's payload (§5.5.1), checked (§7.4).
    package static func readClose(_ payload: [UInt8]) throws(WebSocketProtocolViolation) -> (
        WebSocketCloseCode?, String
    ) {
        if payload.isEmpty { return (nil, "") }
        guard payload.count >= 2 else {
            throw WebSocketProtocolViolation(.protocolError, "a close frame has a payload of 1 byte (RFC 6455 §5.5.1)")
        }
        let code = WebSocketCloseCode(rawValue: UInt16(payload[0]) << 8 | UInt16(payload[1]))
        guard code.canBeSent else {
            throw WebSocketProtocolViolation(
                .protocolError, "a close frame carries the code \(code.rawValue), which may not be sent (RFC 6455 §7.4)"
            )
        }
        var utf8 = UTF8Validation()
        let reason = payload[2...]
        guard utf8.feed(reason), utf8.isComplete else {
            throw WebSocketProtocolViolation(
                .invalidFramePayloadData, "a close frame's reason is not UTF-8 (RFC 6455 §5.5.1)")
        }
        return (code, String(decoding: reason, as: UTF8.self))
    }
}
