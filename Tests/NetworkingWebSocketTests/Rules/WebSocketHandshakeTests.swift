import Foundation
import Testing

import Networking
import NetworkingWebSocket

/// The opening handshake's rules (RFC 6455 §4.1, §4.2.2) and the SHA-1 behind `Sec-WebSocket-Accept`, as tables.
@Suite struct WebSocketHandshakeTests {
    struct DigestCase: Sendable, CustomStringConvertible {
        let input: String
        let hex: String
        var description: String { "SHA-1 of \(input.prefix(20)) (\(input.utf8.count) bytes)" }
    }

    @Test(arguments: [
        // FIPS 180-4 examples (csrc.nist.gov, SHA1.pdf) and the empty message.
        DigestCase(input: "", hex: "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        DigestCase(input: "abc", hex: "a9993e364706816aba3e25717850c26c9cd0d89d"),
        DigestCase(
            input: "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            hex: "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
        DigestCase(input: String(repeating: "a", count: 1_000_000), hex: "34aa973cd4c4daa4f61eeb2bdbad27316534016f"),
        // 55, 56 and 64 bytes: the padding's cases (length fits the block, spills into a second, a full block);
        // the digests from Python's hashlib.
        DigestCase(input: String(repeating: "x", count: 55), hex: "cef734ba81a024479e09eb5a75b6ddae62e6abf1"),
        DigestCase(input: String(repeating: "x", count: 56), hex: "901305367c259952f4e7af8323f480d59f81335b"),
        DigestCase(input: String(repeating: "x", count: 64), hex: "bb2fa3ee7afb9f54c6dfb5d021f14b1ffe40c163"),
    ])
    func sha1MatchesThePublishedDigests(_ test: DigestCase) {
        let hex = SHA1.digest(Data(test.input.utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(hex == test.hex)
    }

    @Test func theAcceptOfTheRFCsExampleKeyIsTheRFCsValue() {
        // RFC 6455 §1.3: the key "dGhlIHNhbXBsZSBub25jZQ==" is answered with "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=".
        #expect(WebSocketHandshake.accept(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func aKeyIsSixteenRandomBytesInBase64() {
        // §4.1 item 7: a nonce of 16 random bytes, base64-encoded (24 characters).
        let key = WebSocketHandshake.makeKey(WebSocketRandom { Array(1...UInt8($0)) })
        #expect(key == Data(Array(1...16 as ClosedRange<UInt8>)).base64EncodedString())
        #expect(Data(base64Encoded: WebSocketHandshake.makeKey(.system))?.count == 16)
        #expect(WebSocketHandshake.makeKey(.system) != WebSocketHandshake.makeKey(.system))
    }

    @Test func theRequestFieldsAreTheRFCsAndOfferSubprotocolsInOrder() {
        let fields = WebSocketHandshake.requestFields(subprotocols: ["chat.v2", "chat"]).map { "\($0.0): \($0.1)" }
        // §4.1 items 5, 9 and 10; item 6 (Connection) is the transport's, item 7 (the key) each attempt's.
        #expect(fields == ["Upgrade: websocket", "Sec-WebSocket-Version: 13", "Sec-WebSocket-Protocol: chat.v2, chat"])
        #expect(WebSocketHandshake.requestFields(subprotocols: []).count == 2)
    }

    struct SubprotocolCase: Sendable, CustomStringConvertible {
        let names: [String]
        let refused: Bool
        var description: String { names.description }
    }

    @Test(arguments: [
        SubprotocolCase(names: ["chat", "superchat"], refused: false),
        SubprotocolCase(names: ["mqtt"], refused: false),
        SubprotocolCase(names: [""], refused: true),  // §4.1 item 10: a token, never empty
        SubprotocolCase(names: ["chat room"], refused: true),  // a space is no token character
        SubprotocolCase(names: ["a,b"], refused: true),  // nor is a comma
        SubprotocolCase(names: ["chat", "chat"], refused: true),  // each offered once
    ])
    func subprotocolsMustBeDistinctTokens(_ test: SubprotocolCase) {
        #expect((WebSocketHandshake.problem(inSubprotocols: test.names) != nil) == test.refused)
    }

    struct AnswerCase: Sendable, CustomStringConvertible {
        let name: String
        let fields: [(String, String)]
        let offered: [String]
        /// The chosen subprotocol ("" for none), or a word the refusal's reason contains.
        let outcome: Result<String, Refusal>
        var description: String { name }
    }

    struct Refusal: Error, Sendable {
        let word: String
    }

    static let key = "dGhlIHNhbXBsZSBub25jZQ=="
    static let good = [
        ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Accept", "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="),
    ]

    static func replacing(_ name: String, with value: String?) -> [(String, String)] {
        var fields = good.filter { $0.0 != name }
        if let value { fields.append((name, value)) }
        return fields
    }

    @Test(arguments: [
        AnswerCase(name: "§4.1: the RFC's answer", fields: good, offered: [], outcome: .success("")),
        AnswerCase(
            name: "§4.1 item 2: Upgrade compared without case", fields: replacing("Upgrade", with: "WebSocket"),
            offered: [], outcome: .success("")),
        AnswerCase(
            name: "§4.1 item 2: no Upgrade", fields: replacing("Upgrade", with: nil), offered: [],
            outcome: .failure(Refusal(word: "Upgrade"))),
        AnswerCase(
            name: "§4.1 item 2: Upgrade of another protocol", fields: replacing("Upgrade", with: "h2c"), offered: [],
            outcome: .failure(Refusal(word: "h2c"))),
        AnswerCase(
            name: "§4.1 item 3: Upgrade among Connection's tokens",
            fields: replacing("Connection", with: "keep-alive, upgrade"), offered: [], outcome: .success("")),
        AnswerCase(
            name: "§4.1 item 3: no Connection", fields: replacing("Connection", with: nil), offered: [],
            outcome: .failure(Refusal(word: "Connection"))),
        AnswerCase(
            name: "§4.1 item 4: another key's accept",
            fields: replacing("Sec-WebSocket-Accept", with: "HSmrc0sMlYUkAGmm5OPpG2HaGWk="), offered: [],
            outcome: .failure(Refusal(word: "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="))),
        AnswerCase(
            name: "§4.1 item 4: no accept", fields: replacing("Sec-WebSocket-Accept", with: nil), offered: [],
            outcome: .failure(Refusal(word: "Sec-WebSocket-Accept"))),
        AnswerCase(
            name: "§4.1 item 5: an extension nobody offered",
            fields: good + [("Sec-WebSocket-Extensions", "permessage-deflate")], offered: [],
            outcome: .failure(Refusal(word: "permessage-deflate"))),
        AnswerCase(
            name: "§4.1 item 6: an offered subprotocol", fields: good + [("Sec-WebSocket-Protocol", "chat")],
            offered: ["superchat", "chat"], outcome: .success("chat")),
        AnswerCase(
            name: "§4.1 item 6: none chosen of those offered", fields: good, offered: ["chat"], outcome: .success("")),
        AnswerCase(
            name: "§4.1 item 6: a subprotocol when none was offered",
            fields: good + [("Sec-WebSocket-Protocol", "chat")], offered: [], outcome: .failure(Refusal(word: "chat"))),
        AnswerCase(
            name: "§4.1 item 6: a subprotocol that was not offered",
            fields: good + [("Sec-WebSocket-Protocol", "mqtt")], offered: ["chat"],
            outcome: .failure(Refusal(word: "mqtt"))),
        AnswerCase(
            name: "§4.1 item 6: two subprotocols",
            fields: good + [("Sec-WebSocket-Protocol", "chat"), ("Sec-WebSocket-Protocol", "mqtt")],
            offered: ["chat", "mqtt"], outcome: .failure(Refusal(word: "2 subprotocols"))),
    ])
    func aSwitchingProtocolsAnswerIsCheckedItemByItem(_ test: AnswerCase) {
        var fields = HTTPFields()
        for (name, value) in test.fields { fields.append(HTTPField(name: HTTPField.Name(name), value: value)) }
        let response = HTTPResponse(status: 101, headerFields: fields)
        let result = WebSocketHandshake.check(response, key: Self.key, subprotocols: test.offered)
        switch (result, test.outcome) {
        case (.success(let chosen), .success(let expected)):
            #expect((chosen ?? "") == expected)
        case (.failure(let problem), .failure(let refusal)):
            #expect(problem.reason.contains(refusal.word), "\(problem.reason)")
            #expect(problem.reason.contains("RFC 6455 §4"))
        default:
            Issue.record("expected \(test.outcome), got \(result)")
        }
    }
}
