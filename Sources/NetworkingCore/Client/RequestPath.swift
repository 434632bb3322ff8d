import Foundation
import NetworkingHTTP

/// The rules for a request path given relative to the client's base URL, and its encoding.
package enum RequestPath {
    /// Why `path` cannot be appended to a base URL, or `nil`: a control character would split the request line,
    /// and a `.` or `..` segment (also percent-encoded) could climb out of the base URL's path (`../../admin`),
    /// since servers and libcurl resolve them.
    package static func problem(in path: String) -> String? {
        var text = path
        return text.withUTF8 { bytes -> String? in
            if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
                return "the path contains a control character (CR, LF, NUL or similar)"
            }
            // Segment by segment up to the query, without building the list of segments.
            let end = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex
            var start = bytes.startIndex
            while start < end {
                let stop = bytes[start..<end].firstIndex(of: UInt8(ascii: "/")) ?? end
                let segment = bytes[start..<stop]
                if !segment.isEmpty, isDotSegment(segment) {
                    return "the path \"\(path)\" has a \"\(String(decoding: segment, as: UTF8.self))\" segment, "
                        + "which would leave the base URL's path"
                }
                start = stop + 1
            }
            return nil
        }
    }

    /// Whether `segment` is `.` or `..`, each dot possibly written `%2e` or `%2E`.
    private static func isDotSegment(_ segment: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var dots = 0
        var index = segment.startIndex
        while index < segment.endIndex {
            if segment[index] == UInt8(ascii: ".") {
                index += 1
            } else if segment[index] == UInt8(ascii: "%"), segment.endIndex - index >= 3,
                segment[index + 1] == UInt8(ascii: "2"), segment[index + 2] | 0x20 == UInt8(ascii: "e")
            {
                index += 3
            } else {
                return false
            }
            dots += 1
            if dots > 2 { return false }
        }
        return dots == 1 || dots == 2
    }

    /// `path` with the characters a path may not carry raw (spaces, quotes, `<>`, non-ASCII) percent-encoded,
    /// valid `%XX` escapes kept as given and a stray `%` written as `%25`.
    package static func escape(_ path: String) -> String {
        var text = path
        if text.withUTF8({ $0.allSatisfy { ASCIISet.relativePath.contains($0) } }) { return text }
        let bytes = Array(path.utf8)
        var out = ""
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) {
                out += String(decoding: bytes[index...index + 2], as: UTF8.self)
                index += 3
                continue
            }
            if ASCIISet.relativePath.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += FormEncoding.percentEscape(byte)
            }
            index += 1
        }
        return out
    }

    /// Query items percent-encoded so `+`, `&` and `=` in names and values survive (space as `%20`).
    package static func encoded(_ query: [URLQueryItem]) -> String {
        query.map { item in
            FormEncoding.escape(item.name).replacingOccurrences(of: "+", with: "%20")
                + (item.value.map { "=" + FormEncoding.escape($0).replacingOccurrences(of: "+", with: "%20") } ?? "")
        }.joined(separator: "&")
    }

    /// `path` followed by `query`, joined with `?` or `&` as the path needs.
    package static func appending(_ query: [URLQueryItem], to path: String) -> String {
        guard !query.isEmpty else { return path }
        let joiner = path.contains("?") ? (path.hasSuffix("?") || path.hasSuffix("&") ? "" : "&") : "?"
        return path + joiner + encoded(query)
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}
