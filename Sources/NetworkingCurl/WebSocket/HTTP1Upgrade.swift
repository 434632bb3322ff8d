import Foundation
import NetworkingHTTP

/// The HTTP/1.1 of a WebSocket handshake on a connection libcurl only opened (`CURLOPT_CONNECT_ONLY`): the request
/// head written, the response head read (RFC 9112), and the body of a refusal framed, all on octets.
package enum HTTP1Upgrade {
    /// The largest response head read (status line and fields): a bigger one fails the handshake.
    package static let headLimit = 64 * 1024

    /// The request head (RFC 9112 §3): `GET path HTTP/1.1`, `Host` (§3.2), `Connection: Upgrade` (RFC 9110 §7.6.1,
    /// which only the transport writes), then the request's fields as they are, each on its own line.
    package static func requestHead(_ request: HTTPRequest) -> Data {
        var head = "\(request.method.rawValue) \(request.path) HTTP/1.1\r\nHost: \(request.authority)\r\n"
        head += "Connection: Upgrade\r\n"
        for field in request.headerFields where field.name != .host {
            head += "\(field.name.rawName): \(field.value)\r\n"
        }
        head += "\r\n"
        return Data(head.utf8)
    }

    /// A response head read from the start of the bytes received.
    package struct Head: Sendable, Equatable {
        /// The final head (an interim 1xx other than 101 is skipped: RFC 9110 §15.2).
        package let response: HTTPResponse
        /// How many bytes of the input the heads took; what follows is the connection's (after a 101) or the body.
        package let length: Int
    }

    /// Why the bytes are no HTTP/1.1 response head, naming the rule.
    package struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        package let reason: String
        package init(_ reason: String) { self.reason = reason }
        package var description: String { reason }
    }

    /// Reads the response head at the start of `bytes`: `nil` while it is incomplete.
    ///
    /// - Throws: ``Problem`` when the bytes break RFC 9112 or the head outgrows ``headLimit``.
    package static func readHead(_ bytes: [UInt8], url: URL?) throws(Problem) -> Head? {
        var start = 0
        while true {
            guard let (lines, end) = try splitHead(bytes, from: start) else { return nil }
            let response = try parse(lines, url: url)
            // RFC 9110 §15.2: interim responses come before the final one; 101 ends HTTP on this connection.
            if (100..<200).contains(response.status.code), response.status.code != 101 {
                start = end
                continue
            }
            return Head(response: response, length: end)
        }
    }

    /// The lines of the head starting at `start` (without their line ends) and where it ends, or `nil` while its
    /// empty line has not arrived. RFC 9112 §2.2: a line ends with CRLF; a bare LF is accepted too.
    private static func splitHead(_ bytes: [UInt8], from start: Int) throws(Problem) -> ([ArraySlice<UInt8>], Int)? {
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = start
        var index = start
        while index < bytes.count {
            if bytes[index] == 0x0A {
                var lineEnd = index
                if lineEnd > lineStart, bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                if lineEnd == lineStart {
                    // §2.2: empty lines before the status line are ignored.
                    if lines.isEmpty {
                        lineStart = index + 1
                        index += 1
                        continue
                    }
                    return (lines, index + 1)
                }
                lines.append(bytes[lineStart..<lineEnd])
                lineStart = index + 1
            }
            index += 1
            if index - start > headLimit {
                throw Problem("the response head is larger than \(headLimit / 1024) KiB")
            }
        }
        return nil
    }

    private static func parse(_ lines: [ArraySlice<UInt8>], url: URL?) throws(Problem) -> HTTPResponse {
        let status = lines[0]
        // §4: status-line = HTTP-version SP status-code SP [ reason-phrase ]; HTTP-version is case-sensitive (§2.3).
        guard status.count >= 12, status.starts(with: httpOneSlash), status[status.startIndex + 8] == 0x20 else {
            throw Problem("the status line is not HTTP/1.x (RFC 9112 §4): \(text(status.prefix(40)))")
        }
        let versionDigits = [status[status.startIndex + 5], status[status.startIndex + 7]]
        guard status[status.startIndex + 6] == 0x2E, versionDigits.allSatisfy(isDigit) else {
            throw Problem("the status line's version is not DIGIT.DIGIT (RFC 9112 §2.3): \(text(status.prefix(40)))")
        }
        let codeBytes = status[(status.startIndex + 9)..<(status.startIndex + 12)]
        guard codeBytes.allSatisfy(isDigit), codeBytes.first != 0x30,
            status.count == 12 || status[status.startIndex + 12] == 0x20
        else {
            throw Problem("the status line has no three-digit status (RFC 9112 §4): \(text(status.prefix(40)))")
        }
        let code = codeBytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        let reason = status.count > 13 ? text(status[(status.startIndex + 13)...]) : ""
        var fields = HTTPFields()
        for line in lines.dropFirst() {
            if let first = line.first, first == 0x20 || first == 0x09 {
                // §5.2: an obsolete line folding is replaced by a space.
                guard !fields.isEmpty else { throw Problem("the first field line is folded (RFC 9112 §5.2)") }
                var last = fields[fields.count - 1]
                last.value += " " + text(trimmed(line))
                fields.replaceSubrange((fields.count - 1)..<fields.count, with: [last])
                continue
            }
            guard let colon = line.firstIndex(of: 0x3A), colon != line.startIndex else {
                throw Problem("a header line is not a field (RFC 9112 §5): \(text(line.prefix(40)))")
            }
            // §5.1: no whitespace between the name and the colon.
            let name = line[..<colon]
            guard name.allSatisfy({ HTTPToken.isTokenByte($0) }) else {
                throw Problem("a field name is not a token (RFC 9112 §5.1): \(text(name.prefix(40)))")
            }
            fields.append(HTTPField(name: HTTPField.Name(text(name)), value: text(trimmed(line[(colon + 1)...]))))
        }
        return HTTPResponse(
            status: HTTPResponse.Status(code: code, reasonPhrase: reason.isEmpty ? nil : reason), headerFields: fields,
            url: url)
    }

    /// How the body of a response that is not a `101` ends (RFC 9112 §6.3).
    package enum BodyFraming: Sendable, Equatable {
        /// `Transfer-Encoding` ending in `chunked`.
        case chunked
        /// `Content-Length`.
        case length(Int)
        /// Neither: the body ends when the server closes the connection.
        case untilClose
    }

    /// The framing of `response`'s body, or why it has none that can be trusted.
    package static func framing(of response: HTTPResponse) throws(Problem) -> BodyFraming {
        let codes = response.status.code
        if (100..<200).contains(codes) || codes == 204 || codes == 304 { return .length(0) }
        if let coding = response.headerFields[values: .transferEncoding].last {
            let last = coding.split(separator: ",").last.map {
                HTTPToken.lowercasedASCII(String($0.trimmingSpacesAndTabs))
            }
            return last == "chunked" ? .chunked : .untilClose
        }
        let lengths = Set(
            response.headerFields[values: .contentLength].flatMap { $0.split(separator: ",") }
                .map { String($0.trimmingSpacesAndTabs) })
        guard !lengths.isEmpty else { return .untilClose }
        guard lengths.count == 1, let text = lengths.first, text.utf8.allSatisfy(isDigit), let length = Int(text) else {
            throw Problem("the response's Content-Length is not one number (RFC 9112 §6.3)")
        }
        return .length(length)
    }

    /// The body of a chunked message at the start of `bytes` (RFC 9112 §7.1): the data of its chunks and whether the
    /// last chunk and the trailer section have arrived. Chunk extensions and trailer fields are read past.
    ///
    /// - Throws: ``Problem`` for a chunk size that is not hexadecimal.
    package static func dechunk(_ bytes: [UInt8]) throws(Problem) -> (body: [UInt8], complete: Bool) {
        var body: [UInt8] = []
        var index = 0
        func line() -> ArraySlice<UInt8>? {
            guard let end = bytes[index...].firstIndex(of: 0x0A) else { return nil }
            var stop = end
            if stop > index, bytes[stop - 1] == 0x0D { stop -= 1 }
            defer { index = end + 1 }
            return bytes[index..<stop]
        }
        while true {
            guard let sizeLine = line() else { return (body, false) }
            let digits = sizeLine.prefix { $0 != 0x3B && $0 != 0x20 && $0 != 0x09 }
            // chunk-size = 1*HEXDIG: no sign (`Int(_:radix:)` would take "-E" as -14, found by `make fuzz`).
            guard !digits.isEmpty, digits.count <= 15, digits.allSatisfy(isHexDigit),
                let size = Int(text(digits), radix: 16)
            else {
                throw Problem("a chunk size is not hexadecimal (RFC 9112 §7.1): \(text(sizeLine.prefix(20)))")
            }
            if size == 0 {
                // The trailer section ends with an empty line.
                while let trailer = line() {
                    if trailer.isEmpty { return (body, true) }
                }
                return (body, false)
            }
            guard bytes.count - index >= size else {
                body.append(contentsOf: bytes[index...])
                return (body, false)
            }
            body.append(contentsOf: bytes[index..<(index + size)])
            index += size
            guard line() != nil else { return (body, false) }
        }
    }

    private static let httpOneSlash = Array("HTTP/".utf8)

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    private static func text<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var result = bytes
        while let first = result.first, first == 0x20 || first == 0x09 { result = result.dropFirst() }
        while let last = result.last, last == 0x20 || last == 0x09 { result = result.dropLast() }
        return result
    }
}
