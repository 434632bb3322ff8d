import Foundation
import Testing

@testable import NetworkingCurl
import NetworkingTestSupport

/// The libcurl transport's reading of header lines and of libcurl's result codes, without a server.
@Suite struct CurlHeadParserTests {
    static func parse(_ lines: [String]) -> (CurlHeadParser, completedAt: Int?) {
        var parser = CurlHeadParser()
        var completed: Int?
        for (index, line) in lines.enumerated() {
            let done = Array(line.utf8).withUnsafeBytes { parser.take($0) }
            if done, completed == nil { completed = index }
        }
        return (parser, completed)
    }

    @Test func repeatedFieldsStaySeparateInOrderAndCase() {
        let (parser, completed) = Self.parse([
            "HTTP/1.1 200 OK\r\n", "Set-Cookie: a=1; Expires=Wed, 09 Jun 2100 10:18:14 GMT\r\n",
            "X-Mixed-Case: v\r\n", "set-cookie: b=2\r\n", "\r\n",
        ])
        #expect(completed == 4)
        let response = parser.response(url: nil)
        #expect(response.status.code == 200)
        #expect(response.status.reasonPhrase == "OK")
        #expect(response.headerFields.map(\.name.rawName) == ["Set-Cookie", "X-Mixed-Case", "set-cookie"])
        #expect(response.headerFields[values: .setCookie] == ["a=1; Expires=Wed, 09 Jun 2100 10:18:14 GMT", "b=2"])
    }

    @Test func anInterimHeadIsDroppedAndTheFinalOneRead() {
        let (parser, completed) = Self.parse([
            "HTTP/1.1 103 Early Hints\r\n", "Link: </a.css>\r\n", "\r\n", "HTTP/1.1 201 Created\r\n",
            "Content-Length: 3\r\n", "\r\n",
        ])
        #expect(completed == 5)
        #expect(parser.code == 201)
        #expect(parser.fields[.init("Link")] == nil)
        #expect(parser.contentLength == 3)
    }

    @Test func anHTTP2StatusLineHasTheStandardPhrase() {
        let (parser, _) = Self.parse(["HTTP/2 404 \r\n", "\r\n"])
        #expect(parser.response(url: nil).status.reasonPhrase == "Not Found")
        #expect(parser.version == "HTTP/2")
    }

    /// The status line's words as `split(separator: " ", maxSplits: 2)` cuts them (runs of spaces between the
    /// first two words are one separator; the reason is what follows the one space after the code).
    @Test(arguments: [
        ("HTTP/1.1 200 OK\r\n", "HTTP/1.1", 200, "OK"),
        ("HTTP/1.1 404 Not Found\r\n", "HTTP/1.1", 404, "Not Found"),
        ("HTTP/1.1  201   Created \r\n", "HTTP/1.1", 201, "  Created "),
        ("HTTP/2 204\r\n", "HTTP/2", 204, ""),
        ("HTTP/2 204 \r\n", "HTTP/2", 204, ""),
    ])
    func aStatusLineIsReadWordByWord(line: String, version: String, code: Int, reason: String) {
        let (parser, completed) = Self.parse([line, "\r\n"])
        #expect(completed == 1)
        #expect(parser.version == version)
        #expect(parser.code == code)
        #expect(parser.reason == reason)
    }

    @Test func aFoldedLineContinuesTheFieldBeforeIt() {
        let (parser, _) = Self.parse(["HTTP/1.1 200 OK\r\n", "X-Long: one\r\n", "\t two\r\n", "\r\n"])
        #expect(parser.fields[.init("X-Long")] == "one two")
        #expect(parser.failure == nil)
    }

    @Test(arguments: [
        (["Content-Length: 5\r\n", "Content-Length: 10\r\n"], "conflicting Content-Length values (5, 10)"),
        ([": no-name\r\n"], "a header line that is not a field"),
    ])
    func anUnusableHeadIsRefused(lines: [String], reason: String) {
        let (parser, _) = Self.parse(["HTTP/1.1 200 OK\r\n"] + lines + ["\r\n"])
        #expect(parser.failure?.contains(reason) == true, "\(String(describing: parser.failure))")
    }

    @Test func optionalWhitespaceAroundAValueIsDroppedAndInsideItKept() {
        // RFC 9110 §5.6.3: spaces and tabs around a field value are not part of it.
        let (parser, _) = Self.parse([
            "HTTP/1.1 200 OK\r\n", "X-A: \t spaced  value \t\r\n", "X-B:tight\r\n", "X-C:\r\n", "\r\n",
        ])
        #expect(parser.fields[.init("X-A")] == "spaced  value")
        #expect(parser.fields[.init("X-B")] == "tight")
        #expect(parser.fields[.init("X-C")] == "")
        #expect(parser.failure == nil)
    }

    @Test func equalLengthsWithSpacesAroundThemAreOneLength() {
        let (parser, _) = Self.parse(["HTTP/1.1 200 OK\r\n", "Content-Length: 5\r\n", "Content-Length:5 \r\n", "\r\n"])
        #expect(parser.failure == nil)
        #expect(parser.contentLength == 5)  // RFC 9110 §8.6: the same value repeated is that value
    }

    /// RFC 9110 §15: a status is three digits, the first its class. Found by make fuzz: `HTTP/1.1 0 OK` completed a
    /// head of status 0, then `HTTP/2.1 002 OK` one of status 2.
    @Test(arguments: [
        "HTTP/1.1 0 OK\r\n", "HTTP/1.1 2000 OK\r\n", "HTTP/1.1 20 OK\r\n", "HTTP/1.1 +20 OK\r\n", "HTTP/1.1\r\n",
        "HTTP/1.1 002 OK\r\n", "HTTP/1.1 099 OK\r\n",
    ])
    func aStatusLineWithoutThreeDigitsIsRefused(line: String) {
        let (parser, completed) = Self.parse([line, "Content-Length: 2\r\n", "\r\n"])
        #expect(parser.failure?.contains("no three-digit status") == true)
        #expect(completed == nil && !parser.isComplete)
    }

    /// RFC 9112 §2.3: HTTP-name is `%x48.54.54.50` ("HTTP"), case-sensitive; libcurl hands `Http/1.1 200 OK` on as a status line.
    @Test(arguments: ["Http/1.1 200 OK\r\n", "http/1.1 200 OK\r\n", "HTTp/1.1 200 OK: x\r\n", "hTTP/2 200\r\n"])
    func aStatusLineWhoseHTTPNameIsNotUppercaseIsRefused(line: String) {
        let (parser, completed) = Self.parse([line, "Content-Length: 2\r\n", "\r\n"])
        #expect(
            parser.failure?.contains("HTTP-name is case-sensitive") == true, "\(String(describing: parser.failure))")
        #expect(completed == nil && !parser.isComplete)
    }

    /// RFC 9112 §4: the reason phrase is optional; a status line without it (even without its space) is read.
    @Test(arguments: ["HTTP/1.1 200\r\n", "HTTP/1.1 200 \r\n"])
    func aStatusLineWithoutAReasonPhraseIsRead(line: String) {
        let (parser, completed) = Self.parse([line, "Content-Length: 2\r\n", "\r\n"])
        #expect(parser.failure == nil)
        #expect(completed == 2)
        #expect(parser.code == 200)
        #expect(parser.reason == "")
    }

    @Test func equalRepeatedLengthsAreOneLength() {
        let (parser, _) = Self.parse(["HTTP/1.1 200 OK\r\n", "Content-Length: 5\r\n", "Content-Length: 5\r\n", "\r\n"])
        #expect(parser.failure == nil)
    }

    @Test(
        arguments: [
            (Int32(6), "Could not resolve host: nowhere", "cannotFindHost", nil),
            (7, "Failed to connect to 127.0.0.1 port 1", "cannotConnect", nil),
            (28, "Operation timed out", "timedOut", nil),
            (18, "transfer closed with 90 bytes remaining to read", "connectionLost", nil),
            (56, "Malformed encoding found in chunked-encoding", "badServerResponse", nil),
            (56, "Connection reset by peer", "connectionLost", nil),
            (52, "Empty reply from server", "badServerResponse", nil),
            (8, "Header without colon", "other", nil),
            (60, "SSL certificate problem: self-signed certificate", "secureConnectionFailed", "certificate"),
            (90, "SSL: public key does not match pinned public key", "secureConnectionFailed", "certificate"),
            (35, "OpenSSL SSL_connect: SSL_ERROR_SYSCALL", "secureConnectionFailed", "handshake"),
            // A TLS 1.3 server refuses the client's certificate with an alert the client reads after its handshake:
            // a refusal, never a lost connection (retried) as other receive errors are.
            (
                56,
                "OpenSSL SSL_read: OpenSSL/3.0.15: error:0A00045C:SSL routines::tlsv13 alert certificate required,"
                    + " errno 0", "secureConnectionFailed", "handshake"
            ),
            (
                56, "OpenSSL SSL_read: error:0A000418:SSL routines::tlsv1 alert unknown ca, errno 0",
                "secureConnectionFailed", "handshake"
            ),
            (
                56, "GnuTLS recv error (-16): A TLS fatal alert has been received.", "secureConnectionFailed",
                "handshake"
            ),
            // LibreSSL (macOS's libcurl) has no words for certificate_required: SSL_AD_REASON_OFFSET + 116.
            (
                56, "LibreSSL SSL_read: error:1404C45C:SSL routines:ST_OK:reason(1116), errno 0",
                "secureConnectionFailed", "handshake"
            ),
            // A reason that is not an alert's (an alert's number is one octet, plus 1000) stays a lost connection.
            (
                56, "LibreSSL SSL_read: error:14FFF3E8:SSL routines:(UNKNOWN)SSL_internal:reason(1000), errno 0",
                "connectionLost", nil
            ),
            (
                56, "LibreSSL SSL_read: error:14FFF3E8:SSL routines:(UNKNOWN)SSL_internal:reason(2116), errno 0",
                "connectionLost", nil
            ),
            // A TLS connection closed without its closing alert, and other read failures inside TLS: lost.
            (
                56, "OpenSSL SSL_read: error:0A000126:SSL routines::unexpected eof while reading, errno 0",
                "connectionLost", nil
            ),
            (
                56, "OpenSSL SSL_read: error:0A000119:SSL routines::decryption failed or bad record mac, errno 0",
                "connectionLost", nil
            ),
            (56, "OpenSSL SSL_read: Connection reset by peer, errno 104", "connectionLost", nil),
            (47, "Maximum redirects followed", "tooManyRedirects", nil),
        ] as [(Int32, String, String, String?)])
    func libcurlResultsAreClassifiedAsTheURLSessionTransportsAre(
        code: Int32, message: String, kind: String, tls: String?
    ) {
        let error = CurlFailure.error(code: code, message: message)
        #expect(error.code.rawValue == kind)
        #expect(error.secureConnectionFailure?.rawValue == tls)
        #expect(error.message.contains("libcurl error \(code)"))
        #expect(error.message.contains(message))
    }
}

extension CurlHeadParserTests {
    @Test func linesAfterTheFinalHeadAreTheBodysTrailerFields() {
        // libcurl hands a chunked body's trailer section (and HTTP/2's trailing HEADERS) to the header callback.
        let (parser, completed) = Self.parse([
            "HTTP/1.1 200 OK\r\n", "Transfer-Encoding: chunked\r\n", "\r\n", "X-Checksum: 42\r\n",
            "not a field\r\n", "x-count: 5\r\n",
        ])
        #expect(completed == 2)
        #expect(parser.fields.map(\.name.rawName) == ["Transfer-Encoding"])
        #expect(parser.trailerFields.map { "\($0.name.rawName): \($0.value)" } == ["X-Checksum: 42", "x-count: 5"])
        #expect(parser.failure == nil)
        #expect(parser.isChunked)
    }

    @Test(
        arguments: [
            (["Content-Length: 10, 4"], nil, true),
            (["Content-Length: 10, 10"], 10, false),
            (["Content-Length: 10", "Content-Length: 10"], 10, false),
            (["Content-Length: 5", "Content-Length: 10"], nil, true),
            (["Content-Length: -3"], nil, true),
        ] as [([String], Int64?, Bool)])
    func aContentLengthListIsOneLengthOrRefused(lines: [String], length: Int64?, refused: Bool) {
        let (parser, _) = Self.parse(["HTTP/1.1 200 OK\r\n"] + lines.map { $0 + "\r\n" } + ["\r\n"])
        #expect(parser.contentLength == length)
        #expect((parser.failure != nil) == refused, "\(String(describing: parser.failure))")
    }

    @Test(arguments: [
        ("HTTP/1.1 200 OK", "Transfer-Encoding: chunked", true),
        ("HTTP/1.1 200 OK", "Transfer-Encoding: gzip, CHUNKED", true),
        ("HTTP/1.1 200 OK", "Transfer-Encoding: gzip", false),
        ("HTTP/1.1 200 OK", "Transfer-Encoding: notchunked", false),
        ("HTTP/2 200", "transfer-encoding: chunked", false),
    ])
    func aBodyIsChunkedAsLibcurlDecidesIt(status: String, field: String, chunked: Bool) {
        let (parser, _) = Self.parse([status + "\r\n", field + "\r\n", "\r\n"])
        #expect(parser.isChunked == chunked)
    }
}
