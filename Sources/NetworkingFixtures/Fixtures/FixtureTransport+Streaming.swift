import Foundation
import NetworkingHTTP
import NetworkingCore

/// Large fixture files: ``FixtureTransport`` answers with the head, then the file's bytes in 64 KiB chunks read as the
/// reader asks for them (a file that large is never read whole), so a stream or a download of a fixture behaves as
/// one from a server.
extension FixtureTransport {
    /// The bytes read from a fixture file at a time: 64 KiB.
    package static let streamChunkSize = 64 * 1024
    /// Files of this size or more are streamed rather than read into memory: 64 KiB, one chunk.
    public static let streamingThreshold: Int64 = 64 * 1024

    /// The file at `url` as a body arriving in chunks, after `head` with its `Content-Length`.
    package func streamed(_ url: URL, head: HTTPResponse, size: Int64, requestName: String, file: String) throws -> (
        HTTPResponse, HTTPBody
    ) {
        try streamed(url, head: head, size: size, trailers: nil, requestName: requestName, file: file)
    }

    /// The file at `url` as a body arriving in chunks, after `head` with its `Content-Length`, then `trailers`.
    package func streamed(
        _ url: URL, head: HTTPResponse, size: Int64, trailers: HTTPFields?, requestName: String, file: String
    ) throws -> (
        HTTPResponse, HTTPBody
    ) {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw FixtureError(
                .invalidFixture, request: requestName, file: file, directory: directory.path,
                reason: "the file cannot be read")
        }
        var sized = head
        if !sized.headerFields.contains(.contentLength) { sized.headerFields[.contentLength] = "\(size)" }
        let (body, continuation) = HTTPBody.makeStream(length: size)
        let producer = Task {
            defer { try? handle.close() }
            do {
                while let chunk = try handle.read(upToCount: Self.streamChunkSize), !chunk.isEmpty {
                    try await continuation.send(chunk)
                }
                if let trailers { continuation.finish(trailerFields: trailers) } else { continuation.finish() }
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination { _ in producer.cancel() }
        return (sized, body)
    }

    /// The whole file at `url`.
    package func readFile(_ url: URL, requestName: String, file: String) throws -> Data {
        do {
            return try FileContents.read(url)
        } catch {
            throw FixtureError(
                .invalidFixture, request: requestName, file: file, directory: directory.path,
                reason: "the file cannot be read")
        }
    }
}
