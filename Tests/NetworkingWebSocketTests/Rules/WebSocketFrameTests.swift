import Foundation
import Testing

import Networking
import NetworkingWebSocket

/// The frame codec (RFC 6455 §5) as tables: frames written, frames read in any cut, and every breach the reader
/// refuses with the close code §7.4.1 names.
@Suite struct WebSocketFrameTests {
    static let hello = Data("Hello".utf8)
    static let rfcKey: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]

    struct EncodingCase: Sendable, CustomStringConvertible {
        let name: String
        let frame: Data
        let bytes: [UInt8]
        var description: String { name }
    }

    @Test(arguments: [
        EncodingCase(
            name: "§5.7: an unmasked text frame", frame: WebSocketFrameEncoding.frame(opcode: 0x1, payload: hello),
            bytes: [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]),
        EncodingCase(
            name: "§5.7: a masked text frame",
            frame: WebSocketFrameEncoding.frame(opcode: 0x1, payload: hello, maskKey: rfcKey),
            bytes: [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]),
        EncodingCase(
            name: "§5.7: the first fragment of a text message",
            frame: WebSocketFrameEncoding.frame(opcode: 0x1, payload: Data("Hel".utf8), fin: false),
            bytes: [0x01, 0x03, 0x48, 0x65, 0x6C]),
        EncodingCase(
            name: "§5.7: a masked pong",
            frame: WebSocketFrameEncoding.frame(opcode: 0xA, payload: hello, maskKey: rfcKey),
            bytes: [0x8A, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]),
        EncodingCase(
            name: "§5.2: an empty masked close",
            frame: WebSocketFrameEncoding.frame(opcode: 0x8, payload: Data(), maskKey: rfcKey),
            bytes: [0x88, 0x80, 0x37, 0xFA, 0x21, 0x3D]),
        EncodingCase(
            name: "§5.2: RSV1 and a reserved opcode, for tests of a peer",
            frame: WebSocketFrameEncoding.frame(opcode: 0x3, payload: Data(), reserved: 0b100), bytes: [0xC3, 0x00]),
    ])
    func framesAreWrittenAsTheRFCShowsThem(_ test: EncodingCase) {
        #expect(Array(test.frame) == test.bytes)
    }

    struct LengthCase: Sendable, CustomStringConvertible {
        let count: Int
        let header: [UInt8]
        var description: String { "\(count) bytes" }
    }

    @Test(arguments: [
        // §5.2: 7 bits up to 125, then 126 and 16 bits, then 127 and 64 bits; §5.7's 256-byte and 64 KiB examples.
        LengthCase(count: 125, header: [0x82, 0x7D]),
        LengthCase(count: 126, header: [0x82, 0x7E, 0x00, 0x7E]),
        LengthCase(count: 256, header: [0x82, 0x7E, 0x01, 0x00]),
        LengthCase(count: 65535, header: [0x82, 0x7E, 0xFF, 0xFF]),
        LengthCase(count: 65536, header: [0x82, 0x7F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00]),
    ])
    func lengthsUseTheShortestOfTheThreeForms(_ test: LengthCase) throws {
        let payload = Data((0..<test.count).map { UInt8(truncatingIfNeeded: $0) })
        let frame = WebSocketFrameEncoding.frame(opcode: 0x2, payload: payload)
        #expect(Array(frame.prefix(test.header.count)) == test.header)
        #expect(frame.count == test.header.count + test.count)
        var reader = WebSocketInbound(maximumMessageSize: 1 << 20)
        reader.append(frame)
        #expect(try reader.next() == .message(.binary(payload)))
    }

    @Test func maskingIsItsOwnInverseAtEveryOffsetAndLength() throws {
        // §5.3: byte i is XORed with key[i mod 4]; a word-at-a-time mask must agree with the byte-at-a-time rule.
        let key: [UInt8] = [0x01, 0x80, 0xFE, 0x33]
        for length in [0, 1, 3, 7, 8, 9, 15, 16, 17, 100] {
            for offset in 0..<4 {
                let original = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
                var masked = original
                masked.withUnsafeMutableBufferPointer { WebSocketFrameEncoding.applyMask(key, to: $0, offset: offset) }
                let expected = original.enumerated().map { $0.element ^ key[($0.offset + offset) % 4] }
                #expect(masked == expected, "length \(length), offset \(offset)")
                masked.withUnsafeMutableBufferPointer { WebSocketFrameEncoding.applyMask(key, to: $0, offset: offset) }
                #expect(masked == original)
            }
        }
    }

    struct ReadCase: Sendable, CustomStringConvertible {
        let name: String
        let bytes: [UInt8]
        let events: [WebSocketInbound.Event]
        var description: String { name }
    }

    @Test(arguments: [
        ReadCase(
            name: "§5.7: an unmasked text frame", bytes: [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F],
            events: [.message(.text("Hello"))]),
        ReadCase(
            name: "§5.7: a text message in two fragments",
            bytes: [0x01, 0x03, 0x48, 0x65, 0x6C, 0x80, 0x02, 0x6C, 0x6F], events: [.message(.text("Hello"))]),
        ReadCase(
            name: "§5.4: a ping between the fragments of a message",
            bytes: [0x01, 0x03, 0x48, 0x65, 0x6C, 0x89, 0x01, 0x21, 0x80, 0x02, 0x6C, 0x6F],
            events: [.ping(Data("!".utf8)), .message(.text("Hello"))]),
        ReadCase(
            name: "§5.4: a message of empty fragments", bytes: [0x02, 0x00, 0x00, 0x00, 0x80, 0x00],
            events: [.message(.binary(Data()))]),
        ReadCase(
            name: "§5.6: a UTF-8 sequence cut between two fragments (κ = CE BA)",
            bytes: [0x01, 0x01, 0xCE, 0x80, 0x01, 0xBA], events: [.message(.text("κ"))]),
        ReadCase(
            name: "§5.5.3: a pong", bytes: [0x8A, 0x02, 0x6F, 0x6B], events: [.pong(Data("ok".utf8))]),
        ReadCase(name: "§5.5.1: a close without a code", bytes: [0x88, 0x00], events: [.close(nil, "")]),
        ReadCase(
            name: "§5.5.1: a close with a code and a reason", bytes: [0x88, 0x05, 0x03, 0xE8, 0x62, 0x79, 0x65],
            events: [.close(.normalClosure, "bye")]),
        ReadCase(
            name: "§7.4.2: an application's code", bytes: [0x88, 0x02, 0x13, 0x87],
            events: [.close(.init(rawValue: 4999), "")]
        ),
        ReadCase(
            name: "§5.5.1: nothing is read after a close", bytes: [0x88, 0x00, 0x81, 0x01, 0x41, 0xFF, 0xFF],
            events: [.close(nil, "")]),
    ])
    func framesAreReadTheSameInAnyCut(_ test: ReadCase) throws {
        #expect(try Self.events(test.bytes, cut: test.bytes.count) == test.events)
        #expect(try Self.events(test.bytes, cut: 1) == test.events)
        #expect(try Self.events(test.bytes, cut: 3) == test.events)
    }

    struct ViolationCase: Sendable, CustomStringConvertible {
        let name: String
        let bytes: [UInt8]
        let code: WebSocketCloseCode
        var maximum = 1024
        var description: String { name }
    }

    @Test(arguments: [
        ViolationCase(name: "§5.2: RSV1 without an extension", bytes: [0xC1, 0x00], code: .protocolError),
        ViolationCase(name: "§5.2: RSV3 without an extension", bytes: [0x92, 0x00], code: .protocolError),
        ViolationCase(name: "§5.2: the reserved data opcode 3", bytes: [0x83, 0x00], code: .protocolError),
        ViolationCase(name: "§5.2: the reserved control opcode 0xB", bytes: [0x8B, 0x00], code: .protocolError),
        ViolationCase(
            name: "§5.1: a masked frame from a server", bytes: [0x81, 0x80, 1, 2, 3, 4], code: .protocolError),
        ViolationCase(name: "§5.5: a fragmented ping", bytes: [0x09, 0x00], code: .protocolError),
        ViolationCase(name: "§5.5: a ping of 126 bytes", bytes: [0x89, 0x7E, 0x00, 0x7E], code: .protocolError),
        ViolationCase(
            name: "§5.2: a 64-bit length with its top bit set",
            bytes: [0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0], code: .protocolError),
        ViolationCase(name: "§5.4: a continuation with no message", bytes: [0x80, 0x00], code: .protocolError),
        ViolationCase(
            name: "§5.4: a new message inside a fragmented one", bytes: [0x01, 0x01, 0x41, 0x81, 0x01, 0x42],
            code: .protocolError),
        ViolationCase(name: "§5.5.1: a close of 1 byte", bytes: [0x88, 0x01, 0x03], code: .protocolError),
        ViolationCase(name: "§7.4.1: a close with 999", bytes: [0x88, 0x02, 0x03, 0xE7], code: .protocolError),
        ViolationCase(name: "§7.4.1: a close with 1005", bytes: [0x88, 0x02, 0x03, 0xED], code: .protocolError),
        ViolationCase(name: "§7.4.1: a close with 1006", bytes: [0x88, 0x02, 0x03, 0xEE], code: .protocolError),
        ViolationCase(name: "§7.4.2: a close with 2999", bytes: [0x88, 0x02, 0x0B, 0xB7], code: .protocolError),
        ViolationCase(name: "§7.4.2: a close with 5000", bytes: [0x88, 0x02, 0x13, 0x88], code: .protocolError),
        ViolationCase(
            name: "§5.5.1: a close reason that is not UTF-8", bytes: [0x88, 0x03, 0x03, 0xE8, 0xFF],
            code: .invalidFramePayloadData),
        ViolationCase(name: "§8.1: a text byte 0xFF", bytes: [0x81, 0x01, 0xFF], code: .invalidFramePayloadData),
        ViolationCase(
            name: "§8.1: a surrogate in text (ED A0 80)", bytes: [0x81, 0x03, 0xED, 0xA0, 0x80],
            code: .invalidFramePayloadData),
        ViolationCase(
            name: "§8.1: text ending inside a sequence", bytes: [0x81, 0x01, 0xCE], code: .invalidFramePayloadData),
        ViolationCase(
            name: "§10.4: a frame over the limit, refused from its header", bytes: [0x82, 0x7E, 0x04, 0x01],
            code: .messageTooBig),
        ViolationCase(
            name: "§10.4: fragments adding up over the limit", bytes: [0x02, 0x03, 1, 2, 3, 0x80, 0x02, 4, 5],
            code: .messageTooBig, maximum: 4),
    ])
    func everyBreachFailsWithItsCloseCode(_ test: ViolationCase) {
        for cut in [test.bytes.count, 1] {
            let violation = Self.violation { _ = try Self.events(test.bytes, cut: cut, maximum: test.maximum) }
            #expect(violation?.code == test.code, "cut \(cut): \(violation?.reason ?? "no violation")")
            #expect(violation?.reason.contains("RFC 6455 §") == true)
        }
    }

    @Test func invalidTextFailsBeforeItsFrameEnds() throws {
        // §8.1 and Autobahn 6.4.3: a frame announcing 9 bytes whose first 3 are already not UTF-8 fails at once, not
        // when the frame (or the message) is complete.
        var reader = WebSocketInbound(maximumMessageSize: 1024)
        reader.append(Data([0x81, 0x09, 0xCE, 0xBA]))
        #expect(try reader.next() == nil)  // a valid prefix waits for more
        reader.append(Data([0xF4, 0x90]))  // above U+10FFFF
        let violation = Self.violation { _ = try reader.next() }
        #expect(violation?.code == .invalidFramePayloadData)
        #expect(reader.isFinished)
    }

    @Test func aClientFrameIsUnmaskedOnTheServersSide() throws {
        // §5.3: what the mock server reads.
        var reader = WebSocketInbound(maximumMessageSize: 1024, expectsMaskedFrames: true)
        reader.append(Data([0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]))
        #expect(try reader.next() == .message(.text("Hello")))
        reader.append(Data([0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]))
        let violation = Self.violation { _ = try reader.next() }
        #expect(violation?.code == .protocolError)
    }

    /// The violation `body` throws, or `nil` when it throws none.
    static func violation(_ body: () throws -> Void) -> WebSocketProtocolViolation? {
        do {
            try body()
            return nil
        } catch {
            return error as? WebSocketProtocolViolation
        }
    }

    /// The events of `bytes` fed `cut` bytes at a time.
    static func events(_ bytes: [UInt8], cut: Int, maximum: Int = 1024) throws -> [WebSocketInbound.Event] {
        var reader = WebSocketInbound(maximumMessageSize: maximum)
        var events: [WebSocketInbound.Event] = []
        var index = 0
        while index < bytes.count {
            reader.append(Data(bytes[index..<min(index + cut, bytes.count)]))
            index += cut
            while let event = try reader.next() { events.append(event) }
        }
        return events
    }
}
