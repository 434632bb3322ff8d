import Foundation
import Networking
import NetworkingCurl
import NetworkingTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One phase of `--counts` in a fresh process of this binary: the child's side (the calls, with its own context
/// switches, rate and CPU around them) and the parent's (the child under a futex counter or valgrind).
enum CountedPhase {
    /// What the child measured around its calls.
    struct Figures {
        let voluntarySwitches: Double
        let involuntarySwitches: Double
        let requestsPerSecond: Double
        let cpuMicroseconds: Double
    }

    /// The valgrind tools read.
    enum Tool: String {
        case dhat, callgrind
    }

    /// The child: warms up, then makes `calls` calls of `part` to `url` with 16 in flight, and prints its voluntary
    /// and involuntary context switches, requests per second and CPU per call over those calls.
    static func child(part name: String, url: String, calls: Int) async throws {
        guard let part = CountsBenchmark.Part(rawValue: name), let target = URL(string: url) else {
            throw BenchmarkError("--counts-phase PART URL CALLS: unknown part \(name) or URL \(url)")
        }
        let transport = try CurlTransport()
        let client = NetworkClient(
            baseURL: target.deletingLastPathComponent(), transport: transport,
            behavior: part == .client || part == .clientOnLoop ? FullChain.make() : CombinedBehavior([]))
        let request = NetworkRequest<Data>(path: "/" + target.lastPathComponent)
        let raw = HTTPRequest(url: target)
        let call: @Sendable () async throws -> Void
        switch part {
        case .engine: call = {}
        case .transport, .transportOnLoop:
            call = {
                let (_, body) = try await transport.send(raw)
                for try await _ in body {}
            }
        case .client, .clientOnLoop: call = { _ = try await client.send(request) }
        }
        func makeCalls(_ count: Int) async throws {
            if part == .engine {
                _ = try CurlBareLoop.concurrentGets(url: url, count: count, inFlight: 16)
            } else if part.onLoop {
                guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else {
                    throw BenchmarkError("\(part.rawValue) needs task executors (macOS 15)")
                }
                _ = try await Measure.throughputPreferring(
                    transport.executor, total: count, concurrency: 16, call)
            } else {
                _ = try await Measure.throughput(total: count, concurrency: 16, call)
            }
        }
        try await makeCalls(part == .engine ? 300 : 320)
        let before = Measure.usage()
        let start = ContinuousClock.now
        try await makeCalls(calls)
        let seconds = (ContinuousClock.now - start).seconds
        let after = Measure.usage()
        print(
            after.voluntary - before.voluntary, after.involuntary - before.involuntary, Double(calls) / seconds,
            (after.cpu - before.cpu) / Double(calls) * 1e6)
    }

    /// Runs the phase natively under the futex counter: the futex calls of the whole process, and its figures.
    static func native(_ part: CountsBenchmark.Part, _ url: String, _ calls: Int, _ counter: FutexCounter) throws
        -> (futex: Int, phase: Figures)
    {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("counts-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: report) }
        let (output, _) = try launch(counter.command(writingTo: report.path) + phase(part, url, calls))
        let numbers = output.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        guard numbers.count == 4 else { throw BenchmarkError("the \(part.rawValue) phase printed \(output)") }
        let futex = try counter.read(String(decoding: try Data(contentsOf: report), as: UTF8.self))
        return (
            futex,
            Figures(
                voluntarySwitches: numbers[0], involuntarySwitches: numbers[1], requestsPerSecond: numbers[2],
                cpuMicroseconds: numbers[3])
        )
    }

    /// Runs the phase under valgrind's `tool`: the blocks allocated (dhat) or the instructions run (callgrind).
    static func valgrind(_ tool: Tool, _ part: CountsBenchmark.Part, _ url: String, _ calls: Int) throws -> Int {
        let output = tool == .dhat ? "--dhat-out-file=/dev/null" : "--callgrind-out-file=/dev/null"
        let (_, log) = try launch(
            ["valgrind", "--tool=\(tool.rawValue)", output] + phase(part, url, calls, binary: try undebugged()))
        // dhat: "==12== Total:     1,234 bytes in 56 blocks"; callgrind: "==12== Collected : 123456".
        let marker = tool == .dhat ? "Total:" : "Collected :"
        guard let line = log.split(separator: "\n").last(where: { $0.contains(marker) }) else {
            throw BenchmarkError("valgrind --tool=\(tool.rawValue) printed no \(marker) line: \(log.suffix(400))")
        }
        let words = line.replacingOccurrences(of: ",", with: "").split(separator: " ")
        let value = tool == .dhat ? words.firstIndex(of: "blocks").map { words[$0 - 1] } : words.last
        guard let value, let count = Int(value) else { throw BenchmarkError("cannot read \(line)") }
        return count
    }

    private static func phase(
        _ part: CountsBenchmark.Part, _ url: String, _ calls: Int, binary: String = CommandLine.arguments[0]
    ) -> [String] {
        [binary, "--counts-phase", part.rawValue, url, String(calls)]
    }

    /// A copy of this binary without its debug information, made once: valgrind 3.19 cannot read the DWARF 5 that
    /// Swift 6.3's compiler writes, and gives up ("possibly corrupted debuginfo file").
    private static func undebugged() throws -> String {
        guard let path = undebuggedCopy else { throw BenchmarkError("objcopy --strip-debug failed (binutils)") }
        return path
    }

    private static let undebuggedCopy: String? = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("networking-bench-nodebug").path
        return (try? launch(["objcopy", "--strip-debug", CommandLine.arguments[0], path])) != nil ? path : nil
    }()

    /// Runs `command` (found on PATH), waits, and returns its standard output and error; throws on failure. The
    /// error goes to a file, so a child writing much to both cannot block on a full pipe.
    static func launch(_ command: [String]) throws -> (output: String, error: String) {
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("counts-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: errorFile.path, contents: nil) else {
            throw BenchmarkError("cannot create \(errorFile.path)")
        }
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let log = String(decoding: (try? Data(contentsOf: errorFile)) ?? Data(), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("\(command.prefix(3).joined(separator: " ")) failed: \(log.suffix(600))")
        }
        return (text, log)
    }
}
