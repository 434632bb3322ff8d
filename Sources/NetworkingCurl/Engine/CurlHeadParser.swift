import Foundation
import NetworkingHTTP

/// Builds a response head from the lines libcurl hands to its header callback: the status line, then each field
/// line as it came (repeated fields stay separate, names keep their case), then an empty line. An interim 1xx head
/// is dropped and the next one read. Lines after the final head are the body's trailer fields (libcurl passes a
/// chunked body's trailer section, and HTTP/2's trailing HEADERS, to the same callback after the body).
package struct CurlHeadParser {
    package var code: Int?
    package var reason = ""
    package var version = ""
    package var fields = HTTPFields()
    /// The trailer fields read after the final head, in order.
    package var trailerFields = HTTPFields()
    /// Whether the last head read is final (not 1xx) and complete.
    package var isComplete = false
    /// Why the head cannot be used (a field line without a name, an invalid length): the transfer stops.
    package var failure: String?
    /// What the final head's `Content-Length` fields say, read once when it completes (``ContentLength``).
    private var framing = ContentLength.Framing.absent

    package init() {}

    /// Takes one line (with its CRLF). Returns `true` when it completed a final head.
    ///
    /// Works on the bytes (no Foundation string trimming): this runs for every field of every response.
    package mutating func take(_ raw: UnsafeRawBufferPointer) -> Bool {
        var bytes = raw[...]
        while let last = bytes.last, last == 0x0A || last == 0x0D { bytes = bytes.dropLast() }
        guard !isComplete else {
            // A trailer field; one that is not a field line is dropped (trailers are optional to process,
            // RFC 9110 §6.5.1: the body before them is whole).
            if let field = Self.field(bytes) { trailerFields.append(field) }
            return false
        }
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
        } else if let field = Self.field(bytes) {
            fields.append(field)
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
        // RFC 9112 §6.3: an invalid Content-Length (differing values, in one field as `10, 4` or in several) makes
        // the framing unrecoverable. libcurl reads the first number of the last field, which could cut the body
        // short while the call looks successful.
        framing = ContentLength.framing(of: fields[values: .contentLength])
        if case .invalid(let reason) = framing { failure = reason }
        return true
    }

    /// `name: value` as a field (the value without its surrounding whitespace); `nil` for a line without a colon
    /// or with an empty name.
    package static func field(_ bytes: Slice<UnsafeRawBufferPointer>) -> HTTPField? {
        guard let colon = bytes.firstIndex(of: 0x3A), colon != bytes.startIndex else { return nil }
        let name = HTTPField.Name(utf8: UnsafeRawBufferPointer(rebasing: bytes[..<colon]))
        let value = String(decoding: trimmed(bytes[(colon + 1)...]), as: UTF8.self)
        return HTTPField(name: name, value: value)
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
        // The words as `split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: true)` cuts them, without
        // its array: version, code, and the rest after one space as the reason.
        let (versionWord, afterVersion) = Self.word(line)
        let (codeWord, afterCode) = Self.word(afterVersion)
        version = String(decoding: versionWord, as: UTF8.self)
        // RFC 9110 §15: the status is three digits, its first the class (1 to 5; 6 to 9 are read and refused as
        // unacceptable later); `HTTP/1.1 0 OK`, `HTTP/1.1 002 OK` or `HTTP/1.1 2000` is not a response (found by
        // `make fuzz`: heads with status 0, then 2, completed as if they were one).
        if codeWord.count == 3, codeWord.allSatisfy({ (0x30...0x39).contains($0) }), codeWord.first != 0x30 {
            code = codeWord.reduce(0) { $0 * 10 + Int($1 &- 0x30) }
        } else {
            code = nil
            failure =
                "the response's status line has no three-digit status (\(String(decoding: line.prefix(40), as: UTF8.self)))"
        }
        reason = afterCode.isEmpty ? "" : String(decoding: afterCode, as: UTF8.self)
        fields = HTTPFields()
        // Room for a usual head's fields at once, rather than growing the array field by field (12: a block
        // malloc still takes from its per-thread cache).
        fields.reserveCapacity(12)
    }

    /// The first word of `bytes` (spaces before it skipped), and what follows the one space after it; both empty
    /// when there is no word.
    private static func word(
        _ bytes: Slice<UnsafeRawBufferPointer>
    ) -> (Slice<UnsafeRawBufferPointer>, Slice<UnsafeRawBufferPointer>) {
        guard let start = bytes.firstIndex(where: { $0 != 0x20 }) else {
            return (bytes[bytes.endIndex...], bytes[bytes.endIndex...])
        }
        guard let end = bytes[start...].firstIndex(of: 0x20) else { return (bytes[start...], bytes[bytes.endIndex...]) }
        return (bytes[start..<end], bytes[(end + 1)...])
    }

    /// The announced body length, when the `Content-Length` fields give one (``ContentLength``).
    var contentLength: Int64? {
        let framing = isComplete ? framing : ContentLength.framing(of: fields[values: .contentLength])
        if case .length(let length) = framing { return length }
        return nil
    }

    /// Whether the body comes in chunks (HTTP/1.x with `chunked` among its transfer codings), as libcurl decides
    /// it: it then frames the body by the chunks, whatever `Content-Length` says (RFC 9112 §6.3).
    var isChunked: Bool {
        guard version.utf8.starts(with: "HTTP/1".utf8) else { return false }
        return FieldSyntax.listMembers(fields[values: .transferEncoding], quoted: false).contains {
            FieldSyntax.equalsIgnoringCase($0, "chunked")
        }
    }

    /// Whether the response announces trailer fields (`Trailer`, RFC 9110 §6.6.2).
    var announcesTrailers: Bool { fields.contains(Self.trailer) }

    /// `Trailer`, made once: a name made from a string is lower-cased and checked each time.
    private static let trailer = HTTPField.Name("Trailer")

    /// The head as a response from `url`.
    func response(url: URL?) -> HTTPResponse {
        HTTPResponse(
            status: HTTPResponse.Status(code: code ?? 0, reasonPhrase: reason.isEmpty ? nil : reason),
            headerFields: fields, url: url)
    }
}
