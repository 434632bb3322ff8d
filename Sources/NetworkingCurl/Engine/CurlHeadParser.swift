import Foundation
import NetworkingHTTP

/// Builds a response head from the lines libcurl hands to its header callback: the status line, then each field
/// line as it came (repeated fields stay separate, names keep their case), then an empty line. An interim 1xx head
/// is dropped and the next one read.
struct CurlHeadParser {
    var code: Int?
    var reason = ""
    var version = ""
    var fields = HTTPFields()
    /// Whether the last head read is final (not 1xx) and complete.
    var isComplete = false
    /// Why the head cannot be used (a field line without a name, conflicting lengths): the transfer stops.
    var failure: String?

    /// Takes one line (with its CRLF). Returns `true` when it completed a final head.
    mutating func take(_ raw: UnsafeRawBufferPointer) -> Bool {
        guard !isComplete else { return false }  // trailers of a chunked body
        var bytes = raw[...]
        while let last = bytes.last, last == 0x0A || last == 0x0D { bytes = bytes.dropLast() }
        if bytes.isEmpty {
            guard let code else { return false }
            if (100..<200).contains(code) {
                self = CurlHeadParser()
                return false
            }
            isComplete = true
            // RFC 9112 §6.3: differing Content-Length values make the framing unrecoverable (libcurl frames by the
            // last one, which could cut the body short while the call looks successful).
            let lengths = Set(fields[values: .contentLength].map { $0.trimmingCharacters(in: .whitespaces) })
            if lengths.count > 1 {
                failure =
                    "the response has conflicting Content-Length values (\(lengths.sorted().joined(separator: ", ")))"
            }
            return true
        }
        let line = String(decoding: bytes, as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            readStatus(line)
        } else if let first = bytes.first, first == 0x20 || first == 0x09, !fields.isEmpty {
            // An obsolete folded line (RFC 9112 §5.2) continues the previous field's value.
            var last = fields[fields.count - 1]
            last.value += " " + line.trimmingCharacters(in: .whitespaces)
            fields.replaceSubrange((fields.count - 1)..<fields.count, with: [last])
        } else if let colon = line.firstIndex(of: ":"), colon != line.startIndex {
            let name = String(line[..<colon])
            let value = line[line.index(after: colon)...].trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
            fields.append(HTTPField(name: HTTPField.Name(name), value: value))
        } else {
            failure = "the response has a header line that is not a field (\(line.prefix(40)))"
        }
        return false
    }

    private mutating func readStatus(_ line: String) {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        version = parts.first.map(String.init) ?? ""
        code = parts.count > 1 ? Int(parts[1]) : nil
        reason = parts.count > 2 ? String(parts[2]) : ""
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
