import Foundation

/// Writes a multipart form with file parts to a temporary file, so that a transport can send it as a file: from
/// disk with an exact length, read again for every redirect hop. Files are copied in 1 MiB chunks, so memory stays
/// flat; the same approach as Alamofire's `MultipartFormData` above its in-memory threshold.
enum MultipartSpool {
    static let chunkSize = 1 << 20

    /// Whether the form has a file part (a form without one is sent from memory).
    static func hasFiles(_ form: MultipartFormData) -> Bool {
        form.parts.contains { if case .file = $0.content { true } else { false } }
    }

    /// Writes the encoded form to a new temporary file and returns its URL; the caller removes it.
    static func write(_ form: MultipartFormData) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("networking-multipart-\(UUID().uuidString).tmp")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        do {
            let output = try FileHandle(forWritingTo: url)
            defer { try? output.close() }
            for segment in form.segments {
                switch segment {
                case .data(let data):
                    try output.write(contentsOf: data)
                case .file(let file):
                    let input = try FileHandle(forReadingFrom: file)
                    defer { try? input.close() }
                    while let chunk = try input.read(upToCount: chunkSize), !chunk.isEmpty {
                        try output.write(contentsOf: chunk)
                    }
                }
            }
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
        return url
    }
}
