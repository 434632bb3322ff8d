import Foundation
import NetworkingHTTP
import NetworkingCore

/// One part of a recorded `multipart/form-data` body, decoded by ``RecordedRequest/formParts()`` for assertions.
public struct RecordedFormPart: Sendable, Hashable {
    /// The `name` parameter of the part's `Content-Disposition`, as written (percent-escapes kept).
    public let name: String
    /// The `filename` parameter, or `nil` for a plain field.
    public let filename: String?
    /// The part's `Content-Type`, or `nil` when it has none.
    public let contentType: String?
    /// The part's bytes.
    public let data: Data

    /// The part's bytes as UTF-8 text.
    public var text: String { String(decoding: data, as: UTF8.self) }

    /// Creates a part.
    /// - Parameters:
    ///   - name: The field name.
    ///   - filename: The file name, if any.
    ///   - contentType: The content type, if any.
    ///   - data: The bytes.
    public init(name: String, filename: String? = nil, contentType: String? = nil, data: Data) {
        self.name = name
        self.filename = filename
        self.contentType = contentType
        self.data = data
    }

    /// Why a body could not be decoded as `multipart/form-data`.
    public struct DecodingError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What was wrong.
        public let reason: String
        /// The reason, for test output.
        public var description: String { "not a multipart/form-data body: \(reason)" }
    }

    /// Splits `body` at `boundary` (RFC 7578, RFC 2046 §5.1) into parts.
    /// - Throws: ``DecodingError`` when the body does not follow the format.
    package static func decode(_ body: Data, boundary: String) throws -> [RecordedFormPart] {
        let bytes = [UInt8](body)
        let delimiter = Array("--\(boundary)".utf8)
        let separator = Array("\r\n--\(boundary)".utf8)
        guard bytes.starts(with: delimiter) else { throw DecodingError(reason: "it does not start with the boundary") }
        var parts: [RecordedFormPart] = []
        var index = delimiter.count
        while true {
            if bytes[index...].starts(with: Array("--".utf8)) { return parts }
            guard bytes[index...].starts(with: [13, 10]) else {
                throw DecodingError(reason: "no line end after a boundary")
            }
            index += 2
            guard let headEnd = find([13, 10, 13, 10], in: bytes, from: index),
                let end = find(separator, in: bytes, from: headEnd + 4)
            else { throw DecodingError(reason: "part \(parts.count + 1) is not closed by a boundary") }
            let head = String(decoding: bytes[index..<headEnd], as: UTF8.self)
            parts.append(try part(head: head, data: Data(bytes[(headEnd + 4)..<end]), number: parts.count + 1))
            index = end + separator.count
        }
    }

    private static func part(head: String, data: Data, number: Int) throws -> RecordedFormPart {
        var name: String?
        var filename: String?
        var contentType: String?
        for line in head.components(separatedBy: "\r\n") {
            let pieces = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pieces.count == 2 else { continue }
            switch pieces[0].lowercased() {
            case "content-disposition":
                name = parameter("name", in: pieces[1])
                filename = parameter("filename", in: pieces[1])
            case "content-type":
                contentType = pieces[1]
            default:
                break
            }
        }
        guard let name else { throw DecodingError(reason: "part \(number) has no Content-Disposition name") }
        return RecordedFormPart(name: name, filename: filename, contentType: contentType, data: data)
    }

    /// The quoted value of `key="…"` in a `Content-Disposition` value.
    private static func parameter(_ key: String, in value: String) -> String? {
        guard let range = value.range(of: "; \(key)=\"") else { return nil }
        let rest = value[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0], bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}

extension RecordedFormPart.DecodingError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` reads as well.
    public var errorDescription: String? { description }
}
