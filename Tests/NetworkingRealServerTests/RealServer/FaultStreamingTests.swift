import Foundation
import Networking
import Testing
import NetworkingTestSupport

extension RealServerTests {
    /// Streamed responses over a real socket, against the fault server's `/trickle` and `/sse`.
    @Suite("Streaming: fault server")
    struct FaultStreamingTests {
        struct Trickle: Decodable, Sendable {
            let written: Int
            let closed: Bool
            let finished: Bool
        }

        static func trickle(_ key: String) async throws -> Trickle {
            let client = NetworkClient(baseURL: try await FaultServer.url())
            return try await client.send(
                NetworkRequest<Trickle>(path: "/__trickle", query: [URLQueryItem(name: "of", value: key)]))
        }

        static func request(_ path: String, _ query: [String: String]) -> NetworkRequest<Data> {
            NetworkRequest<Data>(
                path: path, query: query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0, value: $1) })
        }

        @Test("the body arrives chunk by chunk, every byte, on one hit")
        func wholeBody() async throws {
            let key = FaultServer.newKey("stream")
            let client = try await FaultServer.client()
            let streamed = try await client.stream(
                Self.request("/trickle", ["key": key, "chunks": "20", "bytes": "1000"]))
            #expect(streamed.response.status == .ok)
            var total = 0
            var chunks = 0
            for try await chunk in streamed {
                total += chunk.count
                chunks += 1
            }
            #expect(total == 20_000)
            #expect(chunks >= 1)
            #expect(try await FaultServer.hits(key).count == 1)
            let stats = try await Self.trickle(key)
            #expect(stats.written == 20_000 && stats.finished && !stats.closed)
        }

        @Test("cancelling the stream closes the connection: the server sees the close")
        func cancellationClosesTheConnection() async throws {
            let key = FaultServer.newKey("stream-cancel")
            let client = try await FaultServer.client()
            let streamed = try await client.stream(
                Self.request("/trickle", ["key": key, "chunks": "100000", "bytes": "4096", "ms": "5"]))
            var received = 0
            for try await chunk in streamed.body {
                received += chunk.count
                if received >= 8192 { break }
            }
            streamed.body.cancel()
            var stats = try await Self.trickle(key)
            for _ in 0..<200 where !stats.closed {
                try await Task.sleep(for: .milliseconds(25))
                stats = try await Self.trickle(key)
            }
            #expect(stats.closed, "the server never saw the connection close")
            #expect(!stats.finished)
            #expect(stats.written < 100_000 * 4096)
            let hits = try await FaultServer.hits(key)
            #expect(hits.count == 1, "\(hits.requests.map(\.path))")
        }

        @Test("a body that stops arriving fails with the idle time-out, after the bytes that came")
        func idleTimeout() async throws {
            let key = FaultServer.newKey("stream-idle")
            // The limit is generous for the head (a machine loaded to 3 busy processes per core took over 2 s to
            // answer) and far below the server's 30 s pause, so only the idle limit can end the body.
            let client = try await FaultServer.client(timeout: .seconds(8))
            let streamed = try await client.stream(
                Self.request("/trickle", ["key": key, "chunks": "3", "bytes": "10", "ms": "30000"]))
            var received = 0
            let error = try await expectNetworkError {
                for try await chunk in streamed { received += chunk.count }
            }
            #expect(error?.kind == .timedOut(.attempt))
            #expect(error?.requestName == "GET /trickle")
            #expect(received == 10)
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test("Server-Sent Events stream as they are written")
        func serverSentEvents() async throws {
            let client = try await FaultServer.client()
            let streamed = try await client.stream(Self.request("/sse", ["count": "4", "ms": "20"]))
            #expect(streamed.response.headerFields[.contentType] == "text/event-stream")
            var text = Data()
            for try await chunk in streamed { text.append(chunk) }
            let events = String(decoding: text, as: UTF8.self).components(separatedBy: "\n\n").filter { !$0.isEmpty }
            #expect(events.count == 4)
            #expect(events.last == "id: 3\nevent: tick\ndata: {\"n\": 3}")
        }

        @Test("a body shorter than its length fails the stream after the bytes that came; a longer one stops at it")
        func framing() async throws {
            let client = try await FaultServer.client()
            let truncatedKey = FaultServer.newKey("stream-truncated")
            var received = 0
            let error = try await expectNetworkError {
                for try await chunk in try await client.stream(Self.request("/truncated", ["key": truncatedKey])) {
                    received += chunk.count
                }
            }
            // libcurl's "transfer closed with … remaining"; Apple's loader names it itself: at least a transport error.
            #expect(
                TestEngine.onLibcurl(
                    error?.kind == .transport(.connectionLost), elseAtLeast: Faults.transportCode(error) != nil))
            #expect(received <= 10)
            let overlongKey = FaultServer.newKey("stream-overlong")
            var body = Data()
            for try await chunk in try await client.stream(Self.request("/overlong", ["key": overlongKey])) {
                body.append(chunk)
            }
            #expect(body == Data(repeating: UInt8(ascii: "y"), count: 10))
            // The extra bytes never reach the next call on this client.
            #expect(try await client.send(NetworkRequest<Data>(path: "/ok")) == Data(#"{"ok": true}"#.utf8))
            #expect(try await FaultServer.hits(truncatedKey).count == 1)
            #expect(try await FaultServer.hits(overlongKey).count == 1)
        }

        @Test("an unacceptable status throws before streaming, with the body's start")
        func unacceptableStatus() async throws {
            let client = try await FaultServer.client()
            let error = try await expectNetworkError {
                try await client.stream(NetworkRequest<Data>(path: "/status/404"))
            }
            #expect(error?.kind == .unacceptableStatus(404))
            #expect(error?.body?.isEmpty == false)
        }
    }
}
