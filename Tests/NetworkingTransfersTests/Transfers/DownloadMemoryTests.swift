import Foundation
import Networking
import Testing
import NetworkingTestSupport

/// A streaming transport like URLSession on Linux: it ignores backpressure and pushes the whole body from a task of
/// its own, as fast as it can, once the download has started writing.
private struct FloodingTransport: HTTPTransport {
    let chunk: Data
    let count: Int
    let streams = LockedBox<[HTTPBody]>([])

    func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
        let (stream, continuation) = HTTPBody.makeStream()
        streams.withLock { $0.append(stream) }
        guard let buffer = stream.buffer else { throw TransportError(.other, "a stream has a buffer") }
        let (chunk, count) = (chunk, count)
        Task.detached {
            try await BehaviorFakes.waitUntil { buffer.isWritingThrough || buffer.isTerminated }
            for _ in 0..<count { _ = continuation.yield(chunk) }
            continuation.finish()
        }
        let length = chunk.count * count
        return (HTTPResponse(status: .ok, headerFields: [.contentLength: "\(length)"]), stream)
    }
}

/// A download's memory does not grow with the body: each chunk goes into the file in the producer's own call.
@Suite struct DownloadMemoryTests {
    @Test func aProducerThatIgnoresBackpressureBuffersNothingForADownload() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("download-memory-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("big.bin")
        let chunk = Data((0..<256 * 1024).map { UInt8($0 % 251) })
        let transport = FloodingTransport(chunk: chunk, count: 256)
        let result = try await makeClient(transport: transport)
            .download(NetworkRequest<Data>(path: "/big"), to: destination).value
        #expect(result.byteCount == 64 << 20)
        let size = try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? NSNumber
        #expect(size?.int64Value == 64 << 20)
        let handle = try FileHandle(forReadingFrom: destination)
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(63 << 20))
        #expect(try handle.readToEnd() == chunk + chunk + chunk + chunk)
        // 64 MiB went through a stream whose reader never held a byte: no buffer, whatever the body's size.
        let buffer = try #require(transport.streams.current.first?.buffer)
        #expect(buffer.isWritingThrough)
        #expect(buffer.peakBufferedBytes == 0)
    }

    @Test func aStreamReadInALoopStillBuffersWhatItsReaderHasNotTaken() async throws {
        let (stream, continuation) = HTTPBody.makeStream(bufferLimit: 1024)
        for _ in 0..<4 { _ = continuation.yield(Data(count: 512)) }
        continuation.finish()
        let buffer = try #require(stream.buffer)
        #expect(buffer.peakBufferedBytes == 2048)
        var total = 0
        for try await chunk in stream { total += chunk.count }
        #expect(total == 2048 && !buffer.isWritingThrough)
    }
}
