import Foundation
import NetworkingHTTP
import NetworkingCore
import NetworkingTLS

/// Collects a produced `HTTPBody` in a temporary file, so that a transport can send it from disk with an exact length.
enum StreamSpool {
    /// Why a stream could not be collected.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Writes the stream's chunks to a new temporary file and returns its URL; the caller removes it.
    /// - Throws: ``Failure`` when the byte count differs from the announced length; `HTTPBody/ConsumedError` when
    ///   a one-time body was already taken; the producer's own error; a file system error.
    static func write(_ stream: HTTPBody) async throws -> URL {
        let chunks = stream
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("networking-stream-\(UUID().uuidString).tmp")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        do {
            let output = try FileHandle(forWritingTo: url)
            defer { try? output.close() }
            var count: Int64 = 0
            for try await chunk in chunks {
                try output.write(contentsOf: chunk)
                count += Int64(chunk.count)
                if let length = stream.length, count > length { break }
            }
            if let length = stream.length, count != length {
                throw Failure(
                    description: HTTPBody.lengthMismatch(produced: count > length ? nil : count, announced: length))
            }
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
        return url
    }
}
