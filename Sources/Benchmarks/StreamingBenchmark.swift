import Foundation
import Networking

/// Part 5: streaming and uploads (``UploadBenchmark`` for `upload-file-rss`). `sse-parse`: Server-Sent Events decoded per second in memory, from a `text/event-stream` of
/// typical events (an id, a type, one line of JSON data; about 100 bytes each) cut into 16 KiB chunks.
struct StreamingBenchmark {
    let rounds: Int
    let events: Int

    static let chunkSize = 16 * 1024

    /// The event stream and its chunks, built once.
    static func chunks(events: Int) -> [Data] {
        var stream = Data()
        for index in 0..<events {
            stream.append(
                contentsOf:
                    "id: \(index)\nevent: update\ndata: {\"n\":\(index),\"name\":\"item \(index)\",\"ok\":true}\n\n"
                    .utf8)
        }
        return stride(from: 0, to: stream.count, by: chunkSize).map {
            stream.subdata(in: $0..<min($0 + chunkSize, stream.count))
        }
    }

    /// Events decoded per second, the median of the rounds.
    func serverSentEventsPerSecond() throws -> Double {
        let chunks = Self.chunks(events: events)
        var rates: [Double] = []
        for _ in 0..<rounds {
            let start = ContinuousClock.now
            var decoder = ServerSentEventDecoder()
            var decoded = 0
            for chunk in chunks { decoded += decoder.decode(chunk).count }
            let elapsed = (ContinuousClock.now - start).seconds
            guard decoded == events else { throw BenchmarkError("sse-parse decoded \(decoded) of \(events) events") }
            rates.append(Double(decoded) / elapsed)
        }
        return Measure.median(rates)
    }

    /// The streaming targets, from this run's figures.
    func targets() throws -> TargetSummary {
        var summary = TargetSummary()
        summary.atLeast("sse-parse", try serverSentEventsPerSecond(), "events/s", 1_000_000, digits: 0)
        let upload = try UploadBenchmark.run()
        summary.atMost("upload-file-rss", Double(upload.after) / 1024, "MiB", 64, digits: 1)
        let form = try UploadBenchmark.run(multipart: true)
        summary.atMost("upload-multipart-rss", Double(form.after) / 1024, "MiB", 64, digits: 1)
        return summary
    }
}
