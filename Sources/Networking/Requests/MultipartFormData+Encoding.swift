import Foundation

extension MultipartFormData {
    /// A piece of the encoded body: bytes in memory or a whole file.
    enum Segment: Sendable, Hashable {
        case data(Data)
        case file(URL)
    }

    /// The body as it goes on the wire: part heads and in-memory contents as data, files as references.
    var segments: [Segment] {
        var segments: [Segment] = []
        var pending = Data()
        for part in parts {
            pending.append(contentsOf: "--\(boundary)\r\n".utf8)
            var disposition = "Content-Disposition: form-data; name=\"\(Self.escape(part.name))\""
            if let filename = part.filename { disposition += "; filename=\"\(Self.escape(filename))\"" }
            pending.append(contentsOf: "\(disposition)\r\n".utf8)
            if let contentType = part.contentType {
                pending.append(contentsOf: "Content-Type: \(contentType)\r\n".utf8)
            }
            pending.append(contentsOf: "\r\n".utf8)
            switch part.content {
            case .data(let data):
                pending.append(data)
            case .file(let url):
                segments.append(.data(pending))
                segments.append(.file(url))
                pending = Data()
            }
            pending.append(contentsOf: "\r\n".utf8)
        }
        pending.append(contentsOf: "--\(boundary)--\r\n".utf8)
        segments.append(.data(pending))
        return segments
    }

    /// The exact length of the encoded body, or `nil` if a file's size cannot be read.
    var contentLength: Int64? {
        var total: Int64 = 0
        for segment in segments {
            switch segment {
            case .data(let data): total += Int64(data.count)
            case .file(let url):
                guard let size = BodyFile.size(url) else { return nil }
                total += size
            }
        }
        return total
    }

    /// Why the form cannot be sent, naming the part; `nil` when it can.
    var problem: String? {
        for (index, part) in parts.enumerated() {
            let label = "multipart part \(index + 1) (\"\(DisplayText.escapingControlCharacters(part.name))\")"
            if let contentType = part.contentType,
                contentType.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" })
            {
                return "the content type of \(label) contains a line break"
            }
            switch part.content {
            case .data(let data):
                if data.range(of: Data(boundary.utf8)) != nil { return "\(label) contains the form's boundary" }
            case .file(let url):
                if let problem = BodyFile.problem(url) { return "\(label): \(problem)" }
            }
        }
        return nil
    }

    /// The whole body in memory (files read now); for tests and small forms.
    package func encodedData() throws -> Data {
        var body = Data()
        for segment in segments {
            switch segment {
            case .data(let data): body.append(data)
            case .file(let url): body.append(try Data(contentsOf: url))
            }
        }
        return body
    }

    /// A name or filename for a quoted `Content-Disposition` parameter: `"`, CR and LF percent-encoded.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "%22"
            case "\r": escaped += "%0D"
            case "\n": escaped += "%0A"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
