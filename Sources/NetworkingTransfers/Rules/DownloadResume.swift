import Foundation
import NetworkingHTTP
import NetworkingCore

/// The resume rules of a download (RFC 9110 §14 and §13.1.5): what to ask for given the partial file, and what to
/// do with the answer. A pure value, tested as a table.
///
/// A partial file is resumed only with a validator stored from the response that started it: a strong `ETag`, or
/// else `Last-Modified`. The request then carries `Range: bytes=N-` and `If-Range: <validator>`, so a server whose
/// file changed answers 200 with the new file instead of a range of it.
package struct DownloadResume: Sendable, Hashable {
    /// Bytes already in the partial file.
    package let partialBytes: Int64
    /// The validator stored with the partial file.
    package let validator: String?

    /// What to do with a response.
    package enum Decision: Sendable, Hashable {
        /// Append the body to the partial file: a 206 starting where it ends. `total` is the full length, if known.
        case append(total: Int64?)
        /// Write the body from the start, discarding the partial file: a 200 (a server that ignored the range, or
        /// whose file changed).
        case restart(total: Int64?)
        /// The partial file is already the whole file: a 416 whose `Content-Range: bytes */N` matches its length.
        case complete
        /// The answer cannot continue this file; the partial file is discarded so the next call starts over.
        case discard(String)
    }

    /// Creates the rule for a partial file.
    ///
    /// - Parameters:
    ///   - partialBytes: Bytes already on disk.
    ///   - validator: The validator stored with them.
    package init(partialBytes: Int64, validator: String?) {
        self.partialBytes = max(0, partialBytes)
        self.validator = validator.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether the request resumes: there are bytes to keep and a validator to check them with.
    package var resumes: Bool { partialBytes > 0 && validator != nil }

    /// The header fields to add: `Range` and `If-Range` when resuming, none otherwise.
    package var requestFields: [(HTTPField.Name, String)] {
        guard resumes, let validator else { return [] }
        return [(.range, "bytes=\(partialBytes)-"), (.ifRange, validator)]
    }

    /// Decides what a response means for the partial file.
    ///
    /// - Parameters:
    ///   - status: The response's status code.
    ///   - contentRange: Its `Content-Range`.
    ///   - contentLength: Its `Content-Length`.
    /// - Returns: The decision.
    package func decide(status: Int, contentRange: String?, contentLength: Int64?) -> Decision {
        switch status {
        case 206:
            guard resumes else { return .discard("a 206 answered a request for the whole file") }
            guard let range = contentRange.flatMap(Self.parse), let first = range.first else {
                return .discard("a 206 without a usable Content-Range")
            }
            guard first == partialBytes else {
                return .discard("a 206 starting at byte \(first), not at \(partialBytes)")
            }
            return .append(total: range.total)
        case 416:
            if resumes, let total = contentRange.flatMap(Self.parse)?.total, total == partialBytes { return .complete }
            return .discard("416 Range Not Satisfiable for a partial file of \(partialBytes) bytes")
        default:
            return .restart(total: contentLength)
        }
    }

    /// The validator to store from a response that starts or continues a file: a strong `ETag`, else
    /// `Last-Modified`; `nil` when neither can be used (a weak `ETag` cannot validate a range).
    package static func validator(etag: String?, lastModified: String?) -> String? {
        if let etag, !etag.isEmpty, !etag.utf8.starts(with: "W/".utf8) { return etag }
        if let lastModified, !lastModified.isEmpty { return lastModified }
        return nil
    }

    /// `bytes 100-199/1000` → (100, 1000); `bytes */1000` → (nil, 1000); `bytes 0-9/*` → (0, nil).
    package static func parse(_ contentRange: String) -> (first: Int64?, total: Int64?)? {
        // RFC 9110 §14.4: `bytes` (any ASCII case), a space, then `first-last/complete` or `*/complete`.
        let text = FieldSyntax.trimmed(contentRange)
        guard FieldSyntax.hasPrefixIgnoringCase(text, "bytes "),
            case (let range, let total?) = FieldSyntax.cut(
                FieldSyntax.trimmed(text[text.utf8.index(text.startIndex, offsetBy: 6)...]), at: UInt8(ascii: "/"))
        else { return nil }
        let length = number(total)
        guard FieldSyntax.equals(total, "*") || length != nil else { return nil }
        if FieldSyntax.equals(range, "*") { return length == nil ? nil : (nil, length) }
        guard case (let firstText, let lastText?) = FieldSyntax.cut(range, at: UInt8(ascii: "-")),
            let first = number(firstText), let last = number(lastText), first <= last,
            length.map({ last < $0 }) ?? true
        else { return nil }
        return (first, length)
    }

    /// ASCII digits as a number; `nil` for anything else (a sign, a space, an empty text) or an overflow.
    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int64(text)
    }
}
