import Foundation
import NetworkingHTTP

/// Builds a response head from the lines libcurl hands to its header callback: the status line, then each field
/// line as it came (repeated fields stay separate, names keep their case), then an empty line. An interim 1xx head
/// is dropped and the next one read.
package struct CurlHeadParser {
    package var code: Int?
    package var reason = ""
    package var version = ""
    package var fields = HTTPFields()
    /// Whether the last head read is final (not 1xx) and complete.
    package var isComplete = false
    /// Why the head cannot be used (a field line without a name, conflicting lengths): the transfer stops.
    package var failure: String?

    package init() {}

    /// Takes one line (with its CRLF). Returns `true` when it completed a final head.
    ///
    /// Works on the bytes (no Foundation string trimming): this runs for every field of every response.
    package mutating func take(_ raw: UnsafeRawBufferPointer) -> Bool {
        guard !isComplete else { return false }  // trailers of a chunked body
        var bytes = raw[...]
        while let last = bytes.last, last == 0x0A || last == 0x0D { bytes = bytes.dropLast() }
        if bytes.isEmpty { return endOfHead() }
        if bytes.starts(with: Self.httpSlash) {
            readStatus(bytes)
        } else if bytes.count >= 5, zip(bytes, Self.httpSlash).allSatisfy({ ($0 | 0x20) == ($1 | 0x20) }) {
            // libcurl takes `Http/1.1 200 OK` for a status line (it compares without case); RFC 9112 §2.3 does not.
            code = nil
            failure =
                "the response's status line does not begin with \"HTTP/\" (HTTP-name is case-sensitive, RFC 9112 §2.3):"
                + " \(String(decoding: bytes.prefix(40), as: UTF8.self))"
        } else if let first = bytes.first, first == 0x20 || first == 0x09, !fields.isEmpty {
            // An obsolete folded line (RFC 9112 §5.2) continues the previous field's value.
            var last = fields[fields.count - 1]
            last.value += " " + String(decoding: Self.trimmed(bytes), as: UTF8.self)
            fields.replaceSubrange((fields.count - 1)..<fields.count, with: [last])
        } else if let colon = bytes.firstIndex(of: 0x3A), colon != bytes.startIndex {
            let name = String(decoding: bytes[..<colon], as: UTF8.self)
            let value = String(decoding: Self.trimmed(bytes[(colon + 1)...]), as: UTF8.self)
            fields.append(HTTPField(name: HTTPField.Name(name), value: value))
        } else {
            failure =
                "the response has a header line that is not a field (\(String(decoding: bytes.prefix(40), as: UTF8.self)))"
        }
        return false
    }

    /// The empty line: a final head is complete (`true`), an interim 1xx one is dropped.
    private mutating func endOfHead() -> Bool {
        guard let code else { return false }
        if (100..<200).contains(code) {
            self = CurlHeadParser()
            return false
        }
        isComplete = true
        // RFC 9112 §6.3: differing Content-Length values make the framing unrecoverable (libcurl frames by the
        // last one, which could cut the body short while the call looks successful).
        let lengths = fields[values: .contentLength]
        if lengths.count > 1 {
            let distinct = Set(lengths.map { String($0.trimmingSpacesAndTabs) })
            if distinct.count > 1 {
                failure =
                    "the response has conflicting Content-Length values (\(distinct.sorted().joined(separator: ", ")))"
            }
        }
        return true
    }

    private static let httpSlash: [UInt8] = Array("HTTP/".utf8)

    /// `bytes` without leading and trailing spaces and tabs (the optional whitespace of RFC 9110 §5.6.3).
    private static func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
        var result = bytes
        while let first = result.first, first == 0x20 || first == 0x09 { result = result.dropFirst() }
        while let last = result.last, last == 0x20 || last == 0x09 { result = result.dropLast() }
        return result
    }

    /// Reads `HTTP/1.1 200 OK` (or `HTTP/2 200`): version, code, reason; a new head starts.
    private mutating func readStatus(_ line: Slice<UnsafeRawBufferPointer>) {
        let parts = line.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: true)
        version = parts.first.map { String(decoding: $0, as: UTF8.self) } ?? ""
        // RFC 9110 §15: the status is three digits, its first the class (1 to 5; 6 to 9 are read and refused as
        // unacceptable later); `HTTP/1.1 0 OK`, `HTTP/1.1 002 OK` or `HTTP/1.1 2000` is not a response (found by
        // `make fuzz`: heads with status 0, then 2, completed as if they were one).
        if parts.count > 1, parts[1].count == 3, parts[1].allSatisfy({ (0x30...0x39).contains($0) }),
            parts[1].first != 0x30
        {
            code = Int(String(decoding: parts[1], as: UTF8.self))
        } else {
            code = nil
            failure =
                "the response's status line has no three-digit status (\(String(decoding: line.prefix(40), as: UTF8.self)))"
        }
        reason = parts.count > 2 ? String(decoding: parts[2], as: UTF8.self) : ""
        fields = HTTPFields()
    }

    /// The announced body length, when there is exactly one valid `Content-Length`.
    var contentLength: Int64? {
        let values = fields[values: .contentLength]
        guard values.count == 1, let length = Int64(values[0]), length >= 0 else { return nil }
        return length
    }

    /// The head as a response from `url`.
    func response(url: URL?) -> HTTPResponse {
        HTTPResponse(
            status: HTTPResponse.Status(code: code ?? 0, reasonPhrase: reason.isEmpty ? nil : reason),
            headerFields: fields, url: url)
    }
}
