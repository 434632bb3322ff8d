import Foundation
import NetworkingHTTP
import NetworkingCore

extension RecordingTransport {
    /// A response body as it arrived: its bytes, its chunks, and when each came (after the head).
    struct Arrival {
        var data = Data()
        var chunks: [Int] = []
        var times: [Duration] = []
    }

    /// The request body as it would be stored: bytes in memory or a file's, scrubbed; `nil` when empty or when
    /// it can be read only once (reading it would take it from the upstream).
    func storedRequestBody(_ request: HTTPRequest, scrubber: Scrubber) -> Data? {
        let bytes: Data? = request.body.data ?? request.body.fileURL.flatMap { try? FileContents.read($0) }
        guard let bytes, !bytes.isEmpty else { return nil }
        if let value = JSONText.value(bytes), value is [String: Any] || value is [Any] {
            return JSONText.pretty(scrubber.json(value)) ?? bytes
        }
        return scrubber.bytes(bytes, contentType: request.headerFields[.contentType])
    }

    /// Sends `request` upstream, writes its recording, and answers with the live response.
    func record(
        _ request: HTTPRequest, key: RecordKey, scrubber: Scrubber, requestBody: Data?, digest: String?
    ) async throws -> (HTTPResponse, HTTPBody) {
        state.withLock { $0.sent += 1 }
        let (head, body) = try await upstream.send(request)
        let start = clock.now()
        var arrival = Arrival()
        for try await chunk in body where !chunk.isEmpty {
            guard arrival.data.count + chunk.count <= options.maximumBodySize else {
                body.cancel()
                throw RecordingError(
                    .tooLarge, request: key.manifestKey, directory: directory.path,
                    reason: "the response body is larger than \(options.maximumBodySize) bytes")
            }
            arrival.data.append(chunk)
            arrival.chunks.append(chunk.count)
            arrival.times.append(clock.now() - start)
        }
        var step = RecordedStep(
            status: head.status.code, headers: scrubber.headers(head.headerFields, options: options))
        step.requestBody = digest
        // After the body, which has been read to its end: the trailer fields, scrubbed as headers are.
        let trailers = body.trailerFields
        if let trailers { step.trailers = scrubber.headers(trailers, options: options) }
        // The media type, read as octets: `type/subtype` before any parameter, in any ASCII case.
        let contentType = head.headerFields[.contentType]
        let mediaType = contentType.map { FieldSyntax.parameters($0).value } ?? ""
        let (stored, ext) = storedBody(
            arrival.data, contentType: contentType, mediaType: mediaType, scrubber: scrubber)
        if FieldSyntax.equalsIgnoringCase(mediaType, "text/event-stream") {
            step.chunks = Self.eventSizes(stored)
            if options.recordsPacing { step.pacing = Self.eventTimes(arrival, sizes: Self.eventSizes(arrival.data)) }
        } else if options.recordsChunks, stored.count == arrival.data.count {
            step.chunks = arrival.chunks
            if options.recordsPacing { step.pacing = arrival.times.map(Self.seconds) }
        }
        try write(step, body: stored, ext: ext, requestBody: requestBody, key: key)
        var replayed: HTTPBody =
            arrival.chunks.count > 1
            ? .complete(Self.split(arrival.data, arrival.chunks), trailerFields: trailers) : .data(arrival.data)
        if arrival.chunks.count <= 1 { replayed.trailerFields = trailers }
        return (head, replayed)
    }

    /// The bytes to write and their file extension.
    private func storedBody(_ data: Data, contentType: String?, mediaType: Substring, scrubber: Scrubber) -> (
        Data, String
    ) {
        if data.isEmpty { return (data, "empty") }
        if FieldSyntax.containsIgnoringCase(mediaType, "json"), let value = JSONText.value(data) {
            if options.jsonStyle == .asReceived && !scrubber.hasScrubbedKey(value) {
                return (scrubber.bytes(data, contentType: contentType), "json")
            }
            if let pretty = JSONText.pretty(scrubber.json(value)) { return (pretty, "json") }
        }
        let ext: String
        if FieldSyntax.equalsIgnoringCase(mediaType, "text/event-stream") {
            ext = "events.txt"
        } else if FieldSyntax.equalsIgnoringCase(mediaType, "text/html") {
            ext = "html"
        } else if FieldSyntax.containsIgnoringCase(mediaType, "xml") {
            ext = "xml"
        } else if FieldSyntax.hasPrefixIgnoringCase(mediaType, "text/") {
            ext = "txt"
        } else {
            ext = "bin"
        }
        return (scrubber.bytes(data, contentType: contentType), ext)
    }

    /// Adds `step` to the cassette and writes its files and the manifest, each whole.
    private func write(_ step: RecordedStep, body: Data, ext: String, requestBody: Data?, key: RecordKey) throws {
        try state.withLock { state in
            try load(&state, requestName: key.manifestKey)
            var cassette = state.cassette ?? Cassette()
            let manifestKey = state.keys[key] ?? key.manifestKey
            if mode == .recordAll && !state.rerecorded.contains(manifestKey) {
                cassette.routes[manifestKey] = []
                state.rerecorded.insert(manifestKey)
            }
            var step = step
            let index = cassette.routes[manifestKey, default: []].count
            step.file = key.fileName(index: index, ext: ext)
            if let requestBody {
                let isJSON = JSONText.value(requestBody) != nil
                step.requestFile = key.fileName(index: index, ext: isJSON ? "json" : "bin", role: "request")
            }
            let files = [(step.file, body), (step.requestFile, requestBody)].compactMap { file, data in
                file.flatMap { name in data.map { (name, $0) } }
            }
            for (file, _) in files where writer.exists(file) {
                guard mode == .recordAll else {
                    throw RecordingError(
                        .wouldOverwrite, request: key.manifestKey, file: file, directory: directory.path,
                        reason: "the file exists")
                }
                state.overwritten.append(file)
            }
            cassette.routes[manifestKey, default: []].append(step)
            for (file, data) in files + [(FixtureTransport.manifestName, cassette.manifestData())] {
                do {
                    try writer.write(data, to: file)
                } catch {
                    throw RecordingError(
                        .unwritable, request: key.manifestKey, file: file, directory: directory.path,
                        reason: (error as? FixtureWriter.WriteProblem)?.reason ?? "\(error)")
                }
            }
            state.cassette = cassette
            state.keys[key] = manifestKey
        }
    }

    /// The sizes of the events of an event stream: each ends after a blank line; a tail without one is the last.
    static func eventSizes(_ data: Data) -> [Int] {
        var sizes: [Int] = []
        var start = 0
        let bytes = [UInt8](data)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                var next = index + 1
                if next < bytes.count && bytes[next] == UInt8(ascii: "\r") { next += 1 }
                if next < bytes.count && bytes[next] == UInt8(ascii: "\n") {
                    sizes.append(next + 1 - start)
                    start = next + 1
                    index = next + 1
                    continue
                }
            }
            index += 1
        }
        if start < bytes.count { sizes.append(bytes.count - start) }
        return sizes
    }

    /// When each event was complete: the arrival time of the chunk holding its last byte.
    static func eventTimes(_ arrival: Arrival, sizes: [Int]) -> [Double] {
        var ends: [Int] = []
        var total = 0
        for size in arrival.chunks {
            total += size
            ends.append(total)
        }
        var offset = 0
        return sizes.map { size in
            offset += size
            let chunk = ends.firstIndex { $0 >= offset } ?? (arrival.times.count - 1)
            return arrival.times.indices.contains(chunk) ? seconds(arrival.times[chunk]) : 0
        }
    }

    /// `duration` in seconds, to the millisecond.
    static func seconds(_ duration: Duration) -> Double {
        let milliseconds = duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000
        return Double(milliseconds) / 1_000
    }

    /// `data` cut into pieces of `sizes`; what is left over is one more piece.
    static func split(_ data: Data, _ sizes: [Int]) -> [Data] {
        var pieces: [Data] = []
        var start = data.startIndex
        for size in sizes where start < data.endIndex {
            let end = min(start + size, data.endIndex)
            pieces.append(data.subdata(in: start..<end))
            start = end
        }
        if start < data.endIndex { pieces.append(data.subdata(in: start..<data.endIndex)) }
        return pieces
    }
}
