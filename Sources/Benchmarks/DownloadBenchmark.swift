import Foundation
import Networking
import NetworkingTestSupport

/// Part 5: downloading a large file from nginx to disk. `download-rss` is the peak resident memory of a fresh
/// process that downloads it with `NetworkClient.download` on the default transport (started from this executable with
/// `--download-phase URL DESTINATION`); `download-vs-curl` is the client's throughput over the `curl` command
/// line's on the same file in the same run (best of the rounds for each).
struct DownloadBenchmark {
    struct Result {
        let bytes: Int64
        let peakMiB: Double
        let clientSeconds: Double
        let curlSeconds: Double
        /// A bare Foundation session data task that only counts the bytes: the ceiling for any client built on it.
        let rawSeconds: Double
        var ratio: Double { curlSeconds / clientSeconds }
    }

    let bytes: Int64
    let rounds: Int

    func run() throws -> Result {
        let server = try NginxServer(payload: Data("{}".utf8))
        defer { server.stop() }
        let file = server.directory.appendingPathComponent("www/large.bin")
        // A sparse file: nginx sends its zeros at full speed without filling the disk first.
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw BenchmarkError("cannot create \(file.path)")
        }
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(bytes))
        try handle.close()
        chmod(file.path, 0o644)
        let url = "http://127.0.0.1:\(server.port)/large.bin"
        let destination = server.directory.appendingPathComponent("downloaded.bin")
        try Self.waitForServer(url)
        var client: [(kib: Int, seconds: Double)] = []
        var curl: [Double] = []
        var raw: [Double] = []
        for _ in 0..<rounds {
            raw.append(try Self.rawPhase(url: url, bytes: bytes))
            client.append(try Self.clientPhase(url: url, destination: destination.path, bytes: bytes))
            try? FileManager.default.removeItem(at: destination)
            curl.append(try Self.curl(url: url, destination: destination.path, bytes: bytes))
            try? FileManager.default.removeItem(at: destination)
        }
        return Result(
            bytes: bytes, peakMiB: Double(client.map(\.kib).max() ?? 0) / 1024,
            clientSeconds: client.map(\.seconds).min() ?? .nan, curlSeconds: curl.min() ?? .nan,
            rawSeconds: raw.min() ?? .nan)
    }

    /// Runs the download in a fresh process and reads back its peak RSS (KiB) and seconds.
    private static func clientPhase(url: String, destination: String, bytes: Int64) throws -> (Int, Double) {
        let (status, parts, output) = try Phase.run(["--download-phase", url, destination])
        guard status == 0, parts.count == 3, let kib = Int(parts[0]),
            let seconds = Double(parts[1]), Int64(parts[2]) == bytes
        else {
            throw BenchmarkError("the download phase failed: \(output)")
        }
        return (kib, seconds)
    }

    /// The child process: downloads `url` to `destination`; prints peak RSS in KiB, seconds, and bytes.
    static func downloadPhase(url: String, destination: String) async throws {
        guard let source = URL(string: url) else { throw BenchmarkError("bad URL \(url)") }
        let client = NetworkClient(
            configuration: .init(baseURL: source.deletingLastPathComponent(), timeout: .seconds(60)))
        let start = ContinuousClock.now
        let result = try await client.download(
            NetworkRequest<Data>(path: "/" + source.lastPathComponent), to: URL(fileURLWithPath: destination)
        ).value
        let elapsed = ContinuousClock.now - start
        print(Measure.peakResidentKiB(), elapsed.seconds, result.byteCount)
    }

    /// Times a bare Foundation session download that counts bytes, in a fresh process like the client's.
    private static func rawPhase(url: String, bytes: Int64) throws -> Double {
        let (status, parts, output) = try Phase.run(["--raw-download-phase", url])
        guard status == 0, parts.count == 2, Int64(parts[1]) == bytes, let seconds = Double(parts[0])
        else {
            throw BenchmarkError("the bare download phase failed: \(output)")
        }
        return seconds
    }

    /// The child process of ``rawPhase(url:bytes:)``: prints seconds and bytes.
    static func rawDownloadPhase(url: String) throws {
        guard let source = URL(string: url) else { throw BenchmarkError("bad URL \(url)") }
        let (bytes, seconds) = RawSessionDownload.run(source)
        print(seconds, bytes)
    }

    /// Times `curl -s -o destination url`.
    private static func curl(url: String, destination: String, bytes: Int64) throws -> Double {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["curl", "-s", "-f", "-o", destination, url]
        let start = ContinuousClock.now
        try process.run()
        process.waitUntilExit()
        let elapsed = ContinuousClock.now - start
        let size = (try? FileManager.default.attributesOfItem(atPath: destination)[.size] as? NSNumber)?.int64Value
        guard process.terminationStatus == 0, size == bytes else {
            throw BenchmarkError("curl is missing or failed (status \(process.terminationStatus)); install curl")
        }
        return elapsed.seconds
    }

    private static func waitForServer(_ url: String) throws {
        for _ in 0..<100 {
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["curl", "-s", "-f", "-r", "0-0", "-o", "/dev/null", url]
            try process.run()
            process.waitUntilExit()
            if process.terminationStatus == 0 { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw BenchmarkError("nginx did not answer \(url)")
    }
}

extension DownloadBenchmark {
    /// The section of the report: sizes, times and memory.
    static func describe(_ result: Result) -> String {
        let mib = Double(result.bytes) / 1_048_576
        return String(
            format: "5. Download of %.0f MiB from nginx to disk: client %.2f s (%.0f MiB/s, peak RSS %.1f MiB),"
                + " curl %.2f s (%.0f MiB/s); a bare Foundation session task that only counts the bytes %.2f s (%.0f MiB/s,"
                + " %.3f of curl: the ceiling on this platform)",
            mib, result.clientSeconds, mib / result.clientSeconds, result.peakMiB, result.curlSeconds,
            mib / result.curlSeconds, result.rawSeconds, mib / result.rawSeconds, result.curlSeconds / result.rawSeconds
        )
    }
}

extension Report {
    /// `download-rss` (peak MiB, at most 32) and `download-vs-curl` (throughput ratio, at least 0.90), on the
    /// default transport (libcurl on Linux).
    static func addDownloadTargets(_ result: DownloadBenchmark.Result, to summary: inout TargetSummary) {
        summary.atMost("download-rss", result.peakMiB, "MiB", 32, digits: 1)
        summary.atLeast("download-vs-curl", result.ratio, "ratio", 0.90)
    }
}
