import Foundation
import Networking
import NetworkingCurl
import NetworkingTestSupport

/// WebSockets on `CurlTransport` against the `websockets` package's echo server (`Tests/Servers/websockets_peer.py`),
/// beside the package's own Python client in the same run: messages echoed per second on one connection, one at a
/// time (small and 64 KiB), and the memory of a slow reader while the server pushes 256 MiB (a fresh process:
/// `--websocket-memory-phase URL`).
enum WebSocketBenchmark {
    struct Result {
        /// Messages per second: ours, the Python client's, for each size.
        var rates: [(size: Int, ours: Double, python: Double)] = []
        let slowReaderGrowthMiB: Double
        let slowReaderSeconds: Double
    }

    static let sizes = [(16, 5_000), (64 * 1024, 1_000)]
    static let pushBytes = 256 << 20

    static func run(quick: Bool) async throws -> Result {
        let text = try await PythonServer.launch(script: "websockets_peer.py", command: ["serve"], seconds: 300)
        guard let ports = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Int],
            let port = ports["plain"]
        else { throw BenchmarkError("websockets_peer.py wrote \(text)") }
        let base = URL(string: "http://127.0.0.1:\(port)")!
        var rates: [(Int, Double, Double)] = []
        for (size, count) in sizes {
            let messages = quick ? count / 5 : count
            // Rounds alternate between the two clients, so a change of the machine's load (it is shared) weighs on
            // both alike; the best round of each counts.
            var (ours, python) = (0.0, 0.0)
            for _ in 0..<3 {
                ours = max(ours, try await echoRate(base: base, size: size, count: messages))
                python = max(python, try pythonRate(port: port, size: size, count: messages))
            }
            rates.append((size, ours, python))
        }
        let (growth, seconds) = try memoryPhase(base)
        var result = Result(slowReaderGrowthMiB: growth / 1024, slowReaderSeconds: seconds)
        result.rates = rates
        return result
    }

    /// Echoes `count` binary messages of `size` bytes one at a time on a new connection; messages per second.
    static func echoRate(base: URL, size: Int, count: Int) async throws -> Double {
        let client = NetworkClient(baseURL: base, transport: try CurlTransport())
        var request = WebSocketRequest(path: "/echo")
        request.maximumMessageSize = 1 << 20
        let socket = try await client.webSocket(request)
        defer { Task { try? await socket.close() } }
        let payload = Data((0..<size).map { UInt8(truncatingIfNeeded: $0) })
        var messages = socket.messages.makeAsyncIterator()
        let start = ContinuousClock.now
        for _ in 0..<count {
            try await socket.send(.binary(payload))
            guard case .binary(let echo)? = try await messages.next(), echo.count == size else {
                throw BenchmarkError("the echo differs")
            }
        }
        return Double(count) / (ContinuousClock.now - start).seconds
    }

    /// The `websockets` package's client doing the same, in a process of its own.
    static func pythonRate(port: Int, size: Int, count: Int) throws -> Double {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", TestServers.directory.appendingPathComponent("websockets_peer.py").path, "bench",
            "ws://127.0.0.1:\(port)/echo", "--count", "\(count)", "--size", "\(size)",
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let json = try JSONSerialization.jsonObject(with: output) as? [String: Double],
            let rate = json["messages_per_second"]
        else { throw BenchmarkError("the Python client failed: \(String(decoding: output, as: UTF8.self))") }
        return rate
    }

    /// Runs the slow reader in a fresh process; its peak RSS growth in KiB and its seconds.
    private static func memoryPhase(_ base: URL) throws -> (Double, Double) {
        let (status, parts, output) = try Phase.run(["--websocket-memory-phase", base.absoluteString])
        guard status == 0, parts.count == 2, let growth = Double(parts[0]),
            let seconds = Double(parts[1])
        else { throw BenchmarkError("the WebSocket memory phase failed: \(output)") }
        return (growth, seconds)
    }

    /// The child process: a reader always slower than the network (a 2 ms nap after every 64 KiB, under 32 MiB/s)
    /// while the server pushes 256 MiB in 64 KiB messages; prints the growth of peak RSS (KiB) and the seconds.
    static func childPhase(url: String) async throws {
        guard let base = URL(string: url) else { throw BenchmarkError("bad URL \(url)") }
        let client = NetworkClient(baseURL: base, transport: try CurlTransport())
        let warm = try await client.webSocket(WebSocketRequest(path: "/echo"))
        try await warm.close()
        let before = Measure.peakResidentKiB()
        let start = ContinuousClock.now
        let socket = try await client.webSocket(
            WebSocketRequest(path: "/push", query: [URLQueryItem(name: "bytes", value: "\(pushBytes)")]))
        var total = 0
        for try await message in socket.messages {
            guard case .binary(let data) = message else { continue }
            total += data.count
            try await Task.sleep(for: .milliseconds(2))
        }
        guard total == pushBytes else { throw BenchmarkError("read \(total) bytes of \(pushBytes)") }
        print(Measure.peakResidentKiB() - before, (ContinuousClock.now - start).seconds)
    }

    static func describe(_ result: Result) -> String {
        var lines = result.rates.map { rate in
            String(
                format:
                    "8. WebSocket echo, %@ messages one at a time on one connection (CurlTransport vs the websockets"
                    + " client, same server): %.0f vs %.0f messages/s",
                rate.size >= 1024 ? "\(rate.size / 1024) KiB" : "\(rate.size)-byte", rate.ours, rate.python)
        }
        lines.append(
            String(
                format: "8. WebSocket slow reader: %d MiB pushed, read with a 2 ms nap per 64 KiB message in %.1f s,"
                    + " peak RSS growth %.1f MiB", pushBytes >> 20, result.slowReaderSeconds,
                result.slowReaderGrowthMiB))
        return lines.joined(separator: "\n")
    }

    static func addTargets(_ result: Result, to summary: inout TargetSummary) {
        for rate in result.rates {
            let name = rate.size >= 1024 ? "websocket-echo-64k-vs-python" : "websocket-echo-small-vs-python"
            summary.atLeast(name, rate.ours / max(rate.python, 1), "x", 1)
        }
        summary.atMost("websocket-slow-reader-rss", result.slowReaderGrowthMiB, "MiB", 16, digits: 1)
    }
}
