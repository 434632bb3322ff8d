import Foundation
import Testing

import NetworkingCurl

/// The HTTP/1.1 of a WebSocket handshake on a connection libcurl only opened: the request head written, the answer's
/// head read, a refusal's body framed (RFC 9112), each row citing its section.
@Suite struct HTTP1UpgradeTests {
    struct HeadCase: Sendable, CustomStringConvertible {
        let rule: String
        let bytes: String
        /// The status read, `nil` while incomplete; `-1` for a refusal.
        let status: Int?
        var length: Int? = nil
        var description: String { rule }
    }

    static let switching = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"

    @Test(arguments: [
        HeadCase(rule: "§4: a 101 head, complete at its empty line", bytes: switching, status: 101, length: 77),
        HeadCase(
            rule: "§4: bytes after the head are the connection's", bytes: switching + "\u{81}\u{0}", status: 101,
            length: 77),
        HeadCase(
            rule: "§2.2: incomplete until the empty line", bytes: "HTTP/1.1 101 Switching\r\nUpgrade: x\r\n",
            status: nil),
        HeadCase(rule: "§2.2: a bare LF ends a line", bytes: "HTTP/1.1 401 No\nA: b\n\n", status: 401, length: 22),
        HeadCase(
            rule: "§2.2: empty lines before the status line are ignored", bytes: "\r\nHTTP/1.1 404 X\r\n\r\n",
            status: 404, length: 20),
        HeadCase(
            rule: "RFC 9110 §15.2: an interim 1xx is skipped", bytes: "HTTP/1.1 100 Continue\r\n\r\n" + switching,
            status: 101, length: 102),
        HeadCase(rule: "§4: no reason phrase", bytes: "HTTP/1.1 503\r\n\r\n", status: 503, length: 16),
        HeadCase(rule: "§2.3: HTTP-name is case-sensitive", bytes: "Http/1.1 101 X\r\n\r\n", status: -1),
        HeadCase(rule: "§2.3: the version is DIGIT.DIGIT", bytes: "HTTP/11 101 X\r\n\r\n", status: -1),
        HeadCase(rule: "§4: three digits", bytes: "HTTP/1.1 1010 X\r\n\r\n", status: -1),
        HeadCase(rule: "§4: a status of 0xx is none", bytes: "HTTP/1.1 011 X\r\n\r\n", status: -1),
        HeadCase(rule: "§5: a line that is no field", bytes: "HTTP/1.1 101 X\r\nnocolon\r\n\r\n", status: -1),
        HeadCase(
            rule: "§5.1: no whitespace before the colon", bytes: "HTTP/1.1 101 X\r\nUpgrade : w\r\n\r\n",
            status: -1),
        HeadCase(rule: "§5.2: a fold before any field", bytes: "HTTP/1.1 101 X\r\n folded\r\n\r\n", status: -1),
    ])
    func theAnswersHeadIsReadByTheRules(_ test: HeadCase) throws {
        let result = Result { () throws(HTTP1Upgrade.Problem) in
            try HTTP1Upgrade.readHead(Array(test.bytes.utf8), url: nil)
        }
        switch (result, test.status) {
        case (.success(nil), nil): break
        case (.success(let head?), let status?):
            #expect(head.response.status.code == status)
            #expect(head.length == test.length)
        case (.failure, -1): break
        default: Issue.record("\(test.rule): \(result)")
        }
    }

    @Test func anObsoleteFoldJoinsItsFieldWithASpaceAndFieldsKeepTheirOrder() throws {
        let bytes = Array("HTTP/1.1 101 X\r\nA: one\r\n two\r\nB: 1\r\nB: 2\r\n\r\n".utf8)
        let head = try #require(try HTTP1Upgrade.readHead(bytes, url: nil))
        #expect(head.response.headerFields["A"] == "one two")  // RFC 9112 §5.2
        #expect(head.response.headerFields[values: "B"] == ["1", "2"])
    }

    @Test func aHeadLargerThanItsLimitIsRefusedBeforeItEnds() {
        let bytes = Array(("HTTP/1.1 101 X\r\nA: " + String(repeating: "a", count: HTTP1Upgrade.headLimit)).utf8)
        #expect(throws: HTTP1Upgrade.Problem.self) { try HTTP1Upgrade.readHead(bytes, url: nil) }
    }

    @Test func theRequestHeadIsAGETWithHostAndConnectionUpgradeThenItsFields() throws {
        var request = HTTPRequest(url: URL(string: "http://127.0.0.1:8080/chat?room=1")!)
        request.headerFields["Upgrade"] = "websocket"
        request.headerFields["Host"] = "ignored"
        let head = String(decoding: HTTP1Upgrade.requestHead(request), as: UTF8.self)
        // RFC 9112 §3 and §3.2 (Host from the target), RFC 9110 §7.6.1 (Connection names Upgrade).
        #expect(
            head
                == "GET /chat?room=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n"
        )
    }

    struct FramingCase: Sendable, CustomStringConvertible {
        let rule: String
        let status: Int
        let fields: [String: String]
        let framing: HTTP1Upgrade.BodyFraming?
        var description: String { rule }
    }

    @Test(arguments: [
        FramingCase(
            rule: "§6.3 item 4: chunked last", status: 401, fields: ["Transfer-Encoding": "gzip, chunked"],
            framing: .chunked),
        FramingCase(
            rule: "§6.3 item 4: not chunked last: until close", status: 401,
            fields: ["Transfer-Encoding": "gzip"], framing: .untilClose),
        FramingCase(
            rule: "§6.3 item 6: Content-Length", status: 503, fields: ["Content-Length": "12"],
            framing: .length(12)),
        FramingCase(
            rule: "§6.3 item 5: a list of one value", status: 503, fields: ["Content-Length": "7, 7"],
            framing: .length(7)),
        FramingCase(
            rule: "§6.3 item 5: differing values", status: 503, fields: ["Content-Length": "7, 8"],
            framing: nil),
        FramingCase(rule: "§6.3 item 8: neither: until close", status: 403, fields: [:], framing: .untilClose),
        FramingCase(
            rule: "§6.3 item 1: 204 has no body", status: 204, fields: ["Content-Length": "9"],
            framing: .length(0)),
    ])
    func aRefusalsBodyIsFramedByTheRules(_ test: FramingCase) {
        var fields = HTTPFields()
        for (name, value) in test.fields { fields[HTTPField.Name(name)] = value }
        let response = HTTPResponse(status: .init(code: test.status), headerFields: fields)
        let framing = try? HTTP1Upgrade.framing(of: response)
        #expect(framing == test.framing)
    }

    @Test func chunksAreJoinedExtensionsAndTrailersReadPast() throws {
        let bytes = Array("5;name=x\r\nhello\r\n6\r\n world\r\n0\r\nTrailer: t\r\n\r\n".utf8)
        let (body, complete) = try HTTP1Upgrade.dechunk(bytes)  // RFC 9112 §7.1, §7.1.1, §7.1.2
        #expect(String(decoding: body, as: UTF8.self) == "hello world")
        #expect(complete)
        let (part, done) = try HTTP1Upgrade.dechunk(Array("5\r\nhel".utf8))
        #expect(String(decoding: part, as: UTF8.self) == "hel")
        #expect(!done)
        #expect(throws: HTTP1Upgrade.Problem.self) { try HTTP1Upgrade.dechunk(Array("zz\r\n".utf8)) }
        // chunk-size = 1*HEXDIG: a sign is no digit (found by make fuzz: "-E" read as -14 trapped)
        #expect(throws: HTTP1Upgrade.Problem.self) { try HTTP1Upgrade.dechunk(Array("-E\r\nabc".utf8)) }
        #expect(throws: HTTP1Upgrade.Problem.self) { try HTTP1Upgrade.dechunk(Array("+5\r\nhello".utf8)) }
    }
}
