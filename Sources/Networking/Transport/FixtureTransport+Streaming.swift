import Foundation

/// Streamed bodies from fixtures: ``FixtureTransport`` serves a fixture file to ``NetworkClient/stream(_:behavior:)``
/// and ``NetworkClient/download(_:to:maximumSize:behavior:)`` in 64 KiB chunks read as the reader asks for them (a file other
/// than JSON is never read whole), after the manifest's delay. Statuses, headers and sequences apply as for `send`.
extension FixtureTransport: StreamingHTTPTransport {
    /// The bytes read from a fixture file at a time: 64 KiB.
    static let streamChunkSize = 64 * 1024

    /// Answers `request` from the fixture folder with the head, then the file's bytes as a stream.
    ///
    /// - Parameter request: The request.
    /// - Returns: The head and the body stream.
    /// - Throws: ``FixtureError`` naming the file looked for; `CancellationError`.
    public func stream(_ request: HTTPRequest) async throws -> (HTTPResponse, ResponseBodyStream) {
        try Task.checkCancellation()
        let method = request.method.rawValue.uppercased()
        let segments = try relativeSegments(of: request.pathWithoutQuery, method: method)
        let name = "\(method) /\(segments.joined(separator: "/"))"
        let query = request.queryItems.reduce(into: [String: String]()) { $0[$1.name] = $1.value ?? "" }
        let spec = try nextSpec(method: method, segments: segments, query: query, requestName: name)
        let conventional = Self.fileName(method: method, segments: segments)
        let (inMemory, file) = try body(for: spec, conventional: conventional, requestName: name, reading: false)
        if let delay = spec.delay { try await clock.sleep(for: delay) }
        var headers = HTTPFields(spec.headers)
        if file.hasSuffix(".json") || spec.body != nil, !headers.contains(.contentType) {
            headers[.contentType] = "application/json"
        }
        headers["X-Fixture-File"] = file
        let head = HTTPResponse(status: .init(code: spec.status), headerFields: headers, url: request.url)
        let url = directory.appendingPathComponent(file)
        guard spec.body == nil, !file.hasSuffix(".json"), FileManager.default.fileExists(atPath: url.path) else {
            return (head, .complete(inMemory.isEmpty ? [] : [inMemory]))
        }
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw FixtureError(
                .invalidFixture, request: name, file: file, directory: directory.path, reason: "the file cannot be read"
            )
        }
        var sized = head
        if let size = try? handle.seekToEnd(), !sized.headerFields.contains(.contentLength) {
            sized.headerFields[.contentLength] = "\(size)"
        }
        try? handle.seek(toOffset: 0)
        let (stream, continuation) = ResponseBodyStream.makeStream()
        let producer = Task {
            defer { try? handle.close() }
            do {
                while let chunk = try handle.read(upToCount: Self.streamChunkSize), !chunk.isEmpty {
                    try await continuation.send(chunk)
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination { _ in producer.cancel() }
        return (sized, stream)
    }
}
