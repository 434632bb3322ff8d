import Foundation
import NetworkingHTTP
import NetworkingCore

extension RecordingTransport {
    /// The recorded answer `step` to `request`: its status, headers and body, a stream when it was recorded as
    /// chunks or events (waiting out the recorded pacing on ``clock`` when ``RecordingOptions/replaysPacing``).
    func replay(_ step: RecordedStep, for request: HTTPRequest, name: String) async throws -> (HTTPResponse, HTTPBody) {
        var data = step.inlineBody ?? Data()
        if let file = step.file {
            do {
                data = try FileContents.read(directory.appendingPathComponent(file))
            } catch {
                throw FixtureError(
                    .missingFixture, request: name, file: file, directory: directory.path,
                    reason: "the recorded file cannot be read")
            }
        }
        if let delay = step.delay { try await clock.sleep(for: delay) }
        let head = HTTPResponse(
            status: .init(code: step.status), headerFields: HTTPFields(step.headers), url: request.url)
        let trailers = step.trailers.isEmpty ? nil : HTTPFields(step.trailers)
        guard let chunks = step.chunks, chunks.reduce(0, +) == data.count, chunks.count > 1 || step.pacing != nil
        else {
            var body = HTTPBody.data(data)
            body.trailerFields = trailers
            return (head, body)
        }
        let pieces = Self.split(data, chunks)
        let pacing = options.replaysPacing ? step.pacing ?? [] : []
        let (body, continuation) = HTTPBody.makeStream(length: Int64(data.count))
        let clock = self.clock
        let producer = Task {
            do {
                var elapsed = 0.0
                for (index, piece) in pieces.enumerated() {
                    if index < pacing.count, pacing[index] > elapsed {
                        try await clock.sleep(for: .milliseconds(Int64(((pacing[index] - elapsed) * 1_000).rounded())))
                        elapsed = pacing[index]
                    }
                    try await continuation.send(piece)
                }
                if let trailers { continuation.finish(trailerFields: trailers) } else { continuation.finish() }
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination { _ in producer.cancel() }
        return (head, body)
    }
}

/// The upstream of a replay-only transport: it is never asked, and says so if it is.
struct OfflineTransport: HTTPTransport {
    func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
        throw RecordingError(
            .notRecorded, request: "\(request.method.rawValue) \(request.path)", directory: "",
            reason: "replay only: no network")
    }
}
