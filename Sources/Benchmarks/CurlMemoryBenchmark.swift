import Foundation
import Networking
import NetworkingCurl
import NetworkingTestSupport

/// Memory of the libcurl transport, each figure from a fresh process (`--curl-memory-phase KIND URL`):
/// `slow-reader-rss`, the growth of peak RSS while 256 MiB are read through `stream` by a reader always slower than
/// the network (the transfer must pause, and what the reader has taken must be freed, not pile the body up);
/// `stream-rss-urlsession`, the same body read as it comes through the Foundation transport (Linux's cannot pause a
/// transfer, so its reader keeps up instead; what it has read must be freed all the same); and `inflight-10k`, the
/// growth of peak RSS per call while 10,000 calls through the full chain are in flight at once (all must succeed).
enum CurlMemoryBenchmark {
    struct Result {
        let slowReaderGrowthMiB: Double
        let slowReaderSeconds: Double
        let foundationStreamGrowthMiB: Double
        let inflightKiBPerCall: Double
        let inflightSeconds: Double
    }

    static let slowBytes = 256 << 20
    static let inflightCalls = 10_000

    static func run() async throws -> Result {
        let server = try NginxServer(payload: ChainBenchmark.Payload.oneKilobyte)
        defer { server.stop() }
        let file = server.directory.appendingPathComponent("www/slow.bin")
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw BenchmarkError("cannot create \(file.path)")
        }
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(slowBytes))
        try handle.close()
        chmod(file.path, 0o644)
        let probe = NetworkClient(baseURL: nil, transport: try CurlTransport())
        try await CurlBenchmark.waitUntilServing {
            _ = try await probe.send(NetworkRequest<Data>(url: server.payloadURL))
        }
        let slow = try phase(["slow", "http://127.0.0.1:\(server.port)/slow.bin"])
        let foundation = try phase(["reading-urlsession", "http://127.0.0.1:\(server.port)/slow.bin"])
        let inflight = try phase(["inflight", server.payloadURL.absoluteString])
        return Result(
            slowReaderGrowthMiB: slow.0 / 1024, slowReaderSeconds: slow.1,
            foundationStreamGrowthMiB: foundation.0 / 1024,
            inflightKiBPerCall: inflight.0 / Double(inflightCalls), inflightSeconds: inflight.1)
    }

    /// Runs one phase in a fresh process; returns its RSS growth in KiB and its seconds.
    private static func phase(_ arguments: [String]) throws -> (Double, Double) {
        let (status, parts, output) = try Phase.run(["--curl-memory-phase"] + arguments)
        guard status == 0, parts.count == 2, let growth = Double(parts[0]),
            let seconds = Double(parts[1])
        else { throw BenchmarkError("the \(arguments[0]) phase failed: \(output)") }
        return (growth, seconds)
    }

    /// The child process: prints the growth of peak RSS (KiB) over the phase, and its seconds.
    static func childPhase(kind: String, url: String) async throws {
        guard let target = URL(string: url) else { throw BenchmarkError("bad URL \(url)") }
        let transport: any HTTPTransport = kind == "reading-urlsession" ? URLSessionTransport() : try CurlTransport()
        let client = NetworkClient(
            configuration: .init(
                baseURL: target.deletingLastPathComponent(), transport: transport,
                behavior: FullChain.make(), timeout: .seconds(120), deadline: .seconds(600)))
        let request = NetworkRequest<Data>(path: "/" + target.lastPathComponent)
        _ = try await client.send(NetworkRequest<Data>(path: "/payload.json"))
        let before = Measure.peakResidentKiB()
        let start = ContinuousClock.now
        if kind == "slow" || kind == "reading-urlsession" {
            let stream = try await client.stream(request)
            var total = 0
            var sinceNap = 0
            for try await chunk in stream.body {
                total += chunk.count
                sinceNap += chunk.count
                // A reader that naps 2 ms after every 64 KiB (under 32 MiB/s): always slower than loopback, so it
                // never catches up, and the transfer must pause while each chunk read is freed.
                if sinceNap >= 64 << 10, kind == "slow" {
                    sinceNap = 0
                    try await Task.sleep(for: .milliseconds(2))
                }
            }
            guard total == slowBytes else { throw BenchmarkError("read \(total) bytes of \(slowBytes)") }
        } else {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<inflightCalls { group.addTask { try await client.send(request).count } }
                var succeeded = 0
                for try await _ in group { succeeded += 1 }
                guard succeeded == inflightCalls else { throw BenchmarkError("\(succeeded) calls succeeded") }
            }
        }
        let seconds = (ContinuousClock.now - start).seconds
        print(Measure.peakResidentKiB() - before, seconds)
    }

    static func describe(_ result: Result) -> String {
        String(
            format: "7. libcurl memory: %d MiB read through stream by a reader always slower than the network in"
                + " %.1f s, peak RSS growth %.1f MiB (read as it comes on the Foundation transport: %.1f MiB);"
                + " %d calls in flight at once (full chain) in %.1f s, peak RSS growth %.1f KiB per call",
            slowBytes >> 20, result.slowReaderSeconds, result.slowReaderGrowthMiB, result.foundationStreamGrowthMiB,
            inflightCalls, result.inflightSeconds, result.inflightKiBPerCall)
    }

    static func addTargets(_ result: Result, to summary: inout TargetSummary) {
        summary.atMost("slow-reader-rss", result.slowReaderGrowthMiB, "MiB", 16, digits: 1)
        summary.atMost("stream-rss-urlsession", result.foundationStreamGrowthMiB, "MiB", 16, digits: 1)
        summary.atMost("inflight-10k", result.inflightKiBPerCall, "KiB", 16, digits: 1)
    }
}
