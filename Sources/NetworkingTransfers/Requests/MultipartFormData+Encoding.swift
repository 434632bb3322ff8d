import Foundation
import NetworkingHTTP
import NetworkingCore

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

    /// The encoded form as a body: part heads and in-memory contents as bytes, file parts read from disk in 1 MiB
    /// chunks (memory stays flat), produced afresh for every sending with the form's exact length. Its sending is
    /// refused before any I/O when a part cannot be sent (a missing file, a boundary inside a part).
    public var body: HTTPBody {
        let segments = self.segments
        let form = self
        let produce: @Sendable () -> HTTPBody.Chunks = {
            let reader = SegmentReader(segments)
            return AsyncThrowingStream(unfolding: { try reader.next() })
        }
        return HTTPBody(length: contentLength, problem: { form.problem }, restart: produce)
    }

    /// Whether the form has a file part (a form without one is sent from memory).
    var hasFiles: Bool {
        parts.contains { if case .file = $0.content { true } else { false } }
    }

    /// The whole body in memory (files read now); for tests and small forms.
    package func encodedData() throws -> Data {
        var body = Data()
        for segment in segments {
            switch segment {
            case .data(let data): body.append(data)
            case .file(let url): body.append(try FileContents.read(url))
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

/// Reads a form's segments in order, one chunk per pull: what keeps a multipart body in flat memory however fast
/// or slow the transport takes it.
private final class SegmentReader: Sendable {
    private struct State {
        var index = 0
        var file: FileHandle?
    }

    private let segments: [MultipartFormData.Segment]
    private let state = LockedBox(State())

    init(_ segments: [MultipartFormData.Segment]) {
        self.segments = segments
    }

    /// The next chunk, or `nil` at the end.
    func next() throws -> Data? {
        try state.withLock { state in
            while state.index < segments.count {
                if let file = state.file {
                    if let chunk = try file.read(upToCount: 1 << 20), !chunk.isEmpty { return chunk }
                    try? file.close()
                    state.file = nil
                    state.index += 1
                    continue
                }
                switch segments[state.index] {
                case .data(let data):
                    state.index += 1
                    if !data.isEmpty { return data }
                case .file(let url):
                    state.file = try FileHandle(forReadingFrom: url)
                }
            }
            return nil
        }
    }

    deinit { try? state.withLock { try $0.file?.close() } }
}

extension RequestBody {
    /// A `multipart/form-data` form (`MultipartFormData`): file parts streamed from disk, an exact
    /// `Content-Length`, `Content-Type` with the form's boundary. A form without file parts is sent from memory.
    ///
    /// - Parameter form: The form.
    /// - Returns: The body.
    public static func multipart(_ form: MultipartFormData) -> RequestBody {
        if !form.hasFiles, form.problem == nil, let data = try? form.encodedData() {
            return .data(data, contentType: form.contentType)
        }
        return .stream(form.body, contentType: form.contentType)
    }
}
