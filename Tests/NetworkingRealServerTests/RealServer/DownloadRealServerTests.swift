import Foundation
import Networking
import Testing
import NetworkingTestSupport

extension RealServerTests {
    /// Downloads over a real socket: the fault server's resumable file (cut, then resumed), httpbin's `/range` and
    /// `/bytes`.
    @Suite("Downloads: real servers")
    struct DownloadRealServerTests {
        static func folder() throws -> URL {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent(
                "download-real-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url
        }

        static func expected(_ count: Int) -> Data { Data((0..<count).map { UInt8($0 % 251) }) }

        @Test("a download cut mid-way keeps its partial file and the next call resumes it with a 206")
        func cutThenResumed() async throws {
            let folder = try Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let destination = folder.appendingPathComponent("file.bin")
            let key = FaultServer.newKey("resume")
            let client = try await FaultServer.client()
            let size = 300_000
            let first = NetworkRequest<Data>(
                path: "/resumable/\(size)",
                query: [.init(name: "key", value: key), .init(name: "cut", value: "100000")])
            let error = try await expectNetworkError { try await client.download(first, to: destination).value }
            #expect(error?.kind.description.hasPrefix("transport") == true)
            let partial = try Data(contentsOf: URL(fileURLWithPath: destination.path + ".partial"))
            #expect(partial.count > 0 && partial.count <= 100_000)
            #expect(!FileManager.default.fileExists(atPath: destination.path))

            let again = NetworkRequest<Data>(path: "/resumable/\(size)", query: [.init(name: "key", value: key)])
            let call = client.download(again, to: destination)
            let steps = Task { await call.progress.reduce(into: [TransferProgress]()) { $0.append($1) } }
            let result = try await call.value
            #expect(result.response.status.code == 206)
            #expect(result.resumedFromByte == Int64(partial.count))
            #expect(try Data(contentsOf: destination) == Self.expected(size))
            let progress = await steps.value
            #expect(progress.first.map { $0.completedBytes >= Int64(partial.count) } == true)
            #expect(progress.last == TransferProgress(completedBytes: Int64(size), expectedBytes: Int64(size)))

            let hits = try await FaultServer.hits(key)
            #expect(hits.count == 2)
            #expect(hits.requests.last?.headers["range"] == "bytes=\(partial.count)-")
            #expect(hits.requests.last?.headers["if-range"] == "\"v1\"")
        }

        @Test("an 8 MiB download over a real socket is written through to the file, not buffered for a reader")
        func largeDownloadWritesThrough() async throws {
            let folder = try Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let destination = folder.appendingPathComponent("large.bin")
            let key = FaultServer.newKey("large")
            let streams = LockedBox<[HTTPBody]>([])
            let client = try await FaultServer.client(behavior: StreamCapture(streams: streams))
            let size = 8 << 20
            let request = NetworkRequest<Data>(path: "/resumable/\(size)", query: [.init(name: "key", value: key)])
            let result = try await client.download(request, to: destination).value
            #expect(result.byteCount == Int64(size))
            #expect(try Data(contentsOf: destination) == Self.expected(size))
            #expect(try await FaultServer.hits(key).count == 1)
            let buffer = try #require(streams.current.first?.buffer)
            // The socket's chunks went into the file in the transport's calls, not through a reader: only what came
            // between the head and the start of writing was ever buffered (how much is up to the scheduler).
            #expect(buffer.isWritingThrough)
            #expect(buffer.isTerminated)
        }

        @Test("requests on another client run alongside a download, and every one completes")
        func otherRequestsGoOnDuringADownload() async throws {
            let folder = try Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let destination = folder.appendingPathComponent("large.bin")
            let key = FaultServer.newKey("during-download")
            let downloader = try await FaultServer.client()
            let other = try await FaultServer.client()
            let size = 8 << 20
            let download = downloader.download(
                NetworkRequest<Data>(path: "/resumable/\(size)", query: [.init(name: "key", value: key)]),
                to: destination)
            for _ in 0..<20 {
                _ = try await other.send(NetworkRequest<Data>(path: "/ok", query: [.init(name: "key", value: key)]))
            }
            let result = try await download.value
            #expect(result.byteCount == Int64(size))
            #expect(try Data(contentsOf: destination) == Self.expected(size))
            let hits = try await FaultServer.hits(key)
            #expect(hits.count == 21)
            #expect(hits.requests.filter { $0.path.hasPrefix("/ok") }.count == 20)
        }

        @Test("a changed file (another ETag) makes the server answer 200 and the download start over")
        func changedValidatorRestarts() async throws {
            let folder = try Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let destination = folder.appendingPathComponent("file.bin")
            let key = FaultServer.newKey("resume-changed")
            let client = try await FaultServer.client()
            let cut = NetworkRequest<Data>(
                path: "/resumable/50000", query: [.init(name: "key", value: key), .init(name: "cut", value: "20000")])
            _ = try await expectNetworkError { try await client.download(cut, to: destination).value }
            let changed = NetworkRequest<Data>(
                path: "/resumable/50000", query: [.init(name: "key", value: key), .init(name: "etag", value: "v2")])
            let result = try await client.download(changed, to: destination).value
            #expect(result.response.status == .ok && result.resumedFromByte == 0)
            #expect(try Data(contentsOf: destination) == Self.expected(50000))
            #expect(try await FaultServer.hits(key).count == 2)
        }

        @Test("httpbin's /range honours the Range a resumed download sends")
        func httpbinRange() async throws {
            let folder = try Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let destination = folder.appendingPathComponent("range.bin")
            let client = try await HTTPBin.client()
            let whole = try await client.send(NetworkRequest<Data>(path: "/range/1000"))
            let response = try await client.response(for: NetworkRequest<Data>(path: "/range/1000"))
            let etag = try #require(response.response.headerFields[.eTag])
            try whole.prefix(400).write(to: URL(fileURLWithPath: destination.path + ".partial"))
            try Data(etag.utf8).write(to: URL(fileURLWithPath: destination.path + ".partial-validator"))
            let result = try await client.download(NetworkRequest<Data>(path: "/range/1000"), to: destination).value
            #expect(result.response.status.code == 206)
            #expect(result.resumedFromByte == 400)
            #expect(try Data(contentsOf: destination) == whole)
        }

        @Test("httpbin's /bytes downloads to the file, every byte")
        func httpbinBytes() async throws {
            let folder = try Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let destination = folder.appendingPathComponent("bytes.bin")
            let client = try await HTTPBin.client()
            let result = try await client.download(NetworkRequest<Data>(path: "/bytes/50000"), to: destination).value
            #expect(result.byteCount == 50000)
            #expect(try Data(contentsOf: destination).count == 50000)
        }

        @Test("httpbin's /stream/N arrives as N lines, /drip byte by byte")
        func httpbinStreams() async throws {
            let client = try await HTTPBin.client()
            var text = Data()
            for try await chunk in try await client.stream(NetworkRequest<Data>(path: "/stream/5")) {
                text.append(chunk)
            }
            #expect(String(decoding: text, as: UTF8.self).split(separator: "\n").count == 5)
            var dripped = 0
            let drip = NetworkRequest<Data>(
                path: "/drip",
                query: [
                    .init(name: "numbytes", value: "10"), .init(name: "duration", value: "0.5"),
                    .init(name: "delay", value: "0"),
                ])
            for try await chunk in try await client.stream(drip) { dripped += chunk.count }
            #expect(dripped == 10)
        }
    }
}

/// Keeps the body stream a download's chain sees, so a test can look at its buffer afterwards.
private struct StreamCapture: RequestBehavior {
    let streams: LockedBox<[HTTPBody]>

    func intercept(_ request: HTTPRequest, context: RequestContext, next: @escaping NextHandler) async throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        let (response, body) = try await next(request)
        if body.isStreaming { streams.withLock { $0.append(body) } }
        return (response, body)
    }
}
