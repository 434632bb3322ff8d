import Foundation
import Testing

import Networking
import NetworkingWebSocket

/// The incremental UTF-8 check of text messages (RFC 6455 §8.1, by RFC 3629 §4's grammar) and the close codes that
/// may travel (§7.4), as tables.
@Suite struct UTF8ValidationTests {
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let bytes: [UInt8]
        /// Whether the bytes are UTF-8 so far, and whether they end on a character boundary.
        let valid: Bool
        let complete: Bool
        var description: String { name }
    }

    @Test(arguments: [
        Case(name: "nothing", bytes: [], valid: true, complete: true),
        Case(name: "ASCII longer than a word", bytes: Array("Hello, WebSocket!".utf8), valid: true, complete: true),
        Case(name: "κόσμε (Autobahn 6.2.1)", bytes: Array("κόσμε".utf8), valid: true, complete: true),
        Case(name: "U+10FFFF, the last code point", bytes: [0xF4, 0x8F, 0xBF, 0xBF], valid: true, complete: true),
        Case(name: "U+FFFF", bytes: [0xEF, 0xBF, 0xBF], valid: true, complete: true),
        Case(name: "U+D7FF, below the surrogates", bytes: [0xED, 0x9F, 0xBF], valid: true, complete: true),
        Case(name: "a sequence still open", bytes: [0xF0, 0x9F, 0x98], valid: true, complete: false),
        Case(name: "overlong NUL (C0 80)", bytes: [0xC0, 0x80], valid: false, complete: false),
        Case(name: "overlong 3-byte (E0 80 80)", bytes: [0xE0, 0x80, 0x80], valid: false, complete: false),
        Case(name: "overlong 4-byte (F0 80 80 80)", bytes: [0xF0, 0x80, 0x80, 0x80], valid: false, complete: false),
        Case(name: "a surrogate (ED A0 80)", bytes: [0xED, 0xA0, 0x80], valid: false, complete: false),
        Case(name: "above U+10FFFF (F4 90 80 80)", bytes: [0xF4, 0x90, 0x80, 0x80], valid: false, complete: false),
        Case(name: "F5, never in UTF-8", bytes: [0xF5], valid: false, complete: false),
        Case(name: "FF", bytes: [0x41, 0xFF], valid: false, complete: false),
        Case(name: "a lone continuation byte", bytes: [0x80], valid: false, complete: false),
        Case(name: "a sequence cut by ASCII", bytes: [0xCE, 0x41], valid: false, complete: false),
        Case(
            name: "an error after eight ASCII bytes", bytes: Array("abcdefgh".utf8) + [0xC1, 0xBF], valid: false,
            complete: false),
    ])
    func textIsCheckedByteByByteInAnyCut(_ test: Case) {
        for cut in [max(1, test.bytes.count), 1, 2, 5] {
            var validation = UTF8Validation()
            var valid = true
            var index = 0
            while valid, index < test.bytes.count {
                valid = validation.feed(test.bytes[index..<min(index + cut, test.bytes.count)])
                index += cut
            }
            #expect(valid == test.valid, "cut \(cut)")
            if valid { #expect(validation.isComplete == test.complete, "cut \(cut)") }
        }
    }

    @Test func everyStringSwiftMakesIsAccepted() {
        // Swift's own encoder writes only well-formed UTF-8: a sweep of code points both sides of every boundary.
        let values: [UInt32] = [0x0, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x10FFFF]
        let scalars = values.compactMap { Unicode.Scalar($0) }
        var validation = UTF8Validation()
        let accepted = validation.feed(Array(String(String.UnicodeScalarView(scalars)).utf8))
        #expect(accepted)
        #expect(validation.isComplete)
    }

    struct CodeCase: Sendable, CustomStringConvertible {
        let code: UInt16
        let canBeSent: Bool
        var description: String { "\(code)" }
    }

    @Test(arguments: [
        // §7.4.1 defines 1000–1011 and 1015; §7.4.2 reserves 0–999 and leaves 1016–2999 to the protocol;
        // 3000–4999 are for libraries and applications. IANA's registry adds 1012–1014 (Autobahn 7.7.x and 7.9.x).
        CodeCase(code: 0, canBeSent: false), CodeCase(code: 999, canBeSent: false),
        CodeCase(code: 1000, canBeSent: true), CodeCase(code: 1003, canBeSent: true),
        CodeCase(code: 1004, canBeSent: false), CodeCase(code: 1005, canBeSent: false),
        CodeCase(code: 1006, canBeSent: false), CodeCase(code: 1007, canBeSent: true),
        CodeCase(code: 1011, canBeSent: true), CodeCase(code: 1014, canBeSent: true),
        CodeCase(code: 1015, canBeSent: false), CodeCase(code: 1016, canBeSent: false),
        CodeCase(code: 2999, canBeSent: false), CodeCase(code: 3000, canBeSent: true),
        CodeCase(code: 4999, canBeSent: true), CodeCase(code: 5000, canBeSent: false),
        CodeCase(code: 65535, canBeSent: false),
    ])
    func closeCodesThatMayTravel(_ test: CodeCase) {
        #expect(WebSocketCloseCode(rawValue: test.code).canBeSent == test.canBeSent)
    }

    @Test func aCloseReasonIsCutToItsRoomAtACharacterBoundary() {
        // §5.5: 125 bytes of payload, 2 of them the code, so 123 for the reason; never half a character.
        let reason = String(repeating: "é", count: 100)  // 200 bytes
        let cut = WebSocketFrameEncoding.fittingCloseReason(reason)
        #expect(cut.utf8.count == 122)
        #expect(WebSocketFrameEncoding.fittingCloseReason("bye") == "bye")
        #expect(Array(WebSocketFrameEncoding.closePayload(.normalClosure, reason: "ok")) == [0x03, 0xE8, 0x6F, 0x6B])
        #expect(WebSocketFrameEncoding.closePayload(nil, reason: "").isEmpty)
    }
}
