import Foundation

/// `make bench`: measures the cost of the client side by side in one run and prints one table.
///
/// Options: `--soak [CALLS]` (make soak, alone), `--quick` (fewer rounds, for a smoke test), `--rounds N`, `--chain-only` (part 1 alone), `--loopback-only` (part 2 alone), `--streaming-only` (part 5 alone), `--websocket-only` (part 8 alone), `--profile
/// a|b|c [N]` (one in-memory variant N times, for a profiler), `--counts` (part 9 alone).
@main
struct BenchmarkApp {
    /// A synchronous entry that waits for the benchmarks' task: valgrind 3.19 (Debian 12) crashes at the start of a
    /// program with an `async` main (its main thread parks in `rt_sigsuspend` inside `dispatch_main`), and part 9
    /// runs this binary under valgrind.
    static func main() {
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await run()
            done.signal()
        }
        done.wait()
    }

    static func run() async {
        let arguments = CommandLine.arguments
        let quick = arguments.contains("--quick")
        let rounds = arguments.firstIndex(of: "--rounds").flatMap { Int(arguments[$0 + 1]) } ?? (quick ? 3 : 7)
        do {
            if let index = arguments.firstIndex(of: "--memory-phase"), index + 3 < arguments.count,
                let first = Int(arguments[index + 2]), let total = Int(arguments[index + 3])
            {
                let (afterFirst, afterTotal) = try await LoopbackBenchmark.memoryPhase(
                    side: arguments[index + 1], first: first, total: total)
                print(afterFirst, afterTotal)
                return
            }
            if let index = arguments.firstIndex(of: "--download-phase"), index + 2 < arguments.count {
                try await DownloadBenchmark.downloadPhase(url: arguments[index + 1], destination: arguments[index + 2])
                return
            }
            if let index = arguments.firstIndex(of: "--raw-download-phase"), index + 1 < arguments.count {
                try DownloadBenchmark.rawDownloadPhase(url: arguments[index + 1])
                return
            }
            if let index = arguments.firstIndex(of: "--soak") {
                let calls = index + 1 < arguments.count ? Int(arguments[index + 1]) ?? 1_000_000 : 1_000_000
                let result = try await SoakBenchmark(calls: calls).run()
                var summary = TargetSummary()
                result.addTargets(to: &summary)
                print(result.text)
                print(summary.text)
                return
            }
            let download = DownloadBenchmark(bytes: quick ? 256 << 20 : 1 << 30, rounds: quick ? 1 : 3)
            if arguments.contains("--download-only") {
                let result = try download.run()
                var summary = TargetSummary()
                Report.addDownloadTargets(result, to: &summary)
                print(DownloadBenchmark.describe(result))
                print(summary.text)
                return
            }
            if let index = arguments.firstIndex(of: "--profile"), index + 1 < arguments.count {
                // For instruction-count profiling: one in-memory variant, no server.
                let iterations = index + 2 < arguments.count ? Int(arguments[index + 2]) ?? 20_000 : 20_000
                try await ChainBenchmark(rounds: 1, iterations: iterations).profile(variant: arguments[index + 1])
                return
            }
            if arguments.contains("--upload-phase") {
                let (before, after) = try await UploadBenchmark.phase(multipart: arguments.contains("multipart"))
                print(before, after)
                return
            }
            if arguments.contains("--streaming-only") {
                print(try StreamingBenchmark(rounds: rounds, events: quick ? 20_000 : 200_000).targets().text)
                return
            }
            if arguments.contains("--loopback-only") {
                let loopback = try await LoopbackBenchmark(rounds: rounds, requestsPerRound: quick ? 300 : 2_000)
                    .run(payload: ChainBenchmark.Payload.oneKilobyte)
                for row in loopback.rows {
                    print(row.concurrency, Int(row.raw), Int(row.bare), Int(row.client), row.bare / row.raw, row.ratio)
                }
                return
            }
            if let index = arguments.firstIndex(of: "--curl-memory-phase"), index + 2 < arguments.count {
                try await CurlMemoryBenchmark.childPhase(kind: arguments[index + 1], url: arguments[index + 2])
                return
            }
            if let index = arguments.firstIndex(of: "--counts-phase"), index + 3 < arguments.count,
                let calls = Int(arguments[index + 3])
            {
                try await CountedPhase.child(part: arguments[index + 1], url: arguments[index + 2], calls: calls)
                return
            }
            if arguments.contains("--counts") {
                let counts = CountsBenchmark(short: 1_000, long: quick ? 2_000 : 4_000)
                let rows = try counts.run()
                var summary = TargetSummary()
                CountsBenchmark.addTargets(rows, to: &summary)
                print(CountsBenchmark.describe(rows, short: counts.short, long: counts.long))
                print(summary.text)
                return
            }
            if let index = arguments.firstIndex(of: "--curl-probe"), index + 1 < arguments.count {
                try await CurlProbe.run(
                    count: Int(arguments[index + 1]) ?? 2_000, parts: Array(arguments[(index + 2)...]))
                return
            }
            if arguments.contains("--curl-only") {
                let result = try await CurlBenchmark(rounds: rounds, requestsPerRound: quick ? 300 : 2_000)
                    .run(payload: ChainBenchmark.Payload.oneKilobyte)
                let memory = try await CurlMemoryBenchmark.run()
                var summary = TargetSummary()
                CurlBenchmark.addTargets(result, to: &summary)
                CurlMemoryBenchmark.addTargets(memory, to: &summary)
                print(CurlBenchmark.describe(result))
                print(CurlMemoryBenchmark.describe(memory))
                print(summary.text)
                return
            }
            // WebSockets (WebSocketBenchmark.swift): the memory phase's child process, and the part alone.
            if let index = arguments.firstIndex(of: "--websocket-memory-phase"), index + 1 < arguments.count {
                try await WebSocketBenchmark.childPhase(url: arguments[index + 1])
                return
            }
            if arguments.contains("--websocket-only") {
                let result = try await WebSocketBenchmark.run(quick: quick)
                var summary = TargetSummary()
                WebSocketBenchmark.addTargets(result, to: &summary)
                print(WebSocketBenchmark.describe(result))
                print(summary.text)
                return
            }
            if arguments.contains("--chain-only") {
                let chain = try await ChainBenchmark(rounds: rounds, iterations: quick ? 5_000 : 50_000).run()
                for row in chain.rows { print(row.label, Int(row.nanoseconds)) }
                return
            }
            let memory = try MemoryBenchmark(first: 1_000, total: quick ? 10_000 : 100_000).run()
            var timer = MemoryBenchmark(first: 1_000, total: quick ? 50_000 : 300_000)
            timer.sides = ["timer"]
            let timerMemory = try timer.run()
            let loopback = try await LoopbackBenchmark(rounds: rounds, requestsPerRound: quick ? 300 : 2_000)
                .run(payload: ChainBenchmark.Payload.oneKilobyte)
            let chain = try await ChainBenchmark(rounds: rounds, iterations: quick ? 5_000 : 50_000).run()
            let downloaded = try download.run()
            let curl = try await CurlBenchmark(rounds: rounds, requestsPerRound: quick ? 300 : 2_000)
                .run(payload: ChainBenchmark.Payload.oneKilobyte)
            let curlMemory = try await CurlMemoryBenchmark.run()
            let counts = CountsBenchmark(short: 1_000, long: quick ? 2_000 : 4_000)
            let countRows = try counts.run()
            let report = Report(
                rounds: rounds, chain: chain.rows, payloadBytes: chain.payloadBytes, loopback: loopback,
                memory: memory, timerMemory: timerMemory)
            print(report.text)
            print(DownloadBenchmark.describe(downloaded))
            print(CurlBenchmark.describe(curl))
            print(CurlMemoryBenchmark.describe(curlMemory))
            print(CountsBenchmark.describe(countRows, short: counts.short, long: counts.long))
            print("")
            var targets = report.targets
            Report.addDownloadTargets(downloaded, to: &targets)
            CurlBenchmark.addTargets(curl, to: &targets)
            CurlMemoryBenchmark.addTargets(curlMemory, to: &targets)
            CountsBenchmark.addTargets(countRows, to: &targets)
            print(targets.text)
            print(try StreamingBenchmark(rounds: rounds, events: quick ? 20_000 : 200_000).targets().text)
            let webSocket = try await WebSocketBenchmark.run(quick: quick)
            var webSocketTargets = TargetSummary()
            WebSocketBenchmark.addTargets(webSocket, to: &webSocketTargets)
            print(WebSocketBenchmark.describe(webSocket))
            print(webSocketTargets.text)
        } catch {
            FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
            exit(1)
        }
    }
}

/// The one table `make bench` prints.
struct Report {
    let rounds: Int
    let chain: [ChainBenchmark.Row]
    let payloadBytes: Int
    let loopback: LoopbackBenchmark.Result
    let memory: [MemoryBenchmark.Side]
    let timerMemory: [MemoryBenchmark.Side]

    /// The targets of the transport-speed and call-model issues, from this run's figures.
    var targets: TargetSummary {
        let ns = Dictionary(uniqueKeysWithValues: chain.map { ($0.label, $0.nanoseconds) })
        let direct = ns["(a) transport directly"] ?? .nan
        let empty = ns["(b) client, EmptyBehavior"] ?? .nan
        var summary = TargetSummary()
        let one = loopback.rows.first { $0.concurrency == 1 }
        let sixteen = loopback.rows.first { $0.concurrency == 16 }
        // One caller against raw data(for:): information since issue 43 (three delegate callbacks a response on
        // Linux's Foundation against data(for:)'s one completion, see the benchmarks README).
        summary.reported("e2e-1-caller", one?.ratio ?? .nan, "ratio", reference: 0.90)
        summary.atLeast("e2e-16-callers", sixteen?.ratio ?? .nan, "ratio", 1.00)
        summary.reported("client-no-behaviors-1-caller", one.map { $0.bare / $0.raw } ?? .nan, "ratio", reference: 0.95)
        summary.atMost("chain-six-overhead", (ns["(c) client, full chain of six"] ?? .nan) - empty, "ns", 2_000)
        summary.atMost("client-overhead", empty - direct, "ns", 2_000)
        summary.atMost("timer-path", (ns["(b) EmptyBehavior, plain transport*"] ?? .nan) - empty, "ns", 3_000)
        let timer = timerMemory.first
        summary.atMost(
            "timer-memory", timer.map { Double($0.afterTotal - $0.afterFirst) / 1024 } ?? .nan, "MiB", 5, digits: 2)
        if memory.count == 2 {
            let beyond = (memory[1].afterTotal - memory[1].afterFirst) - (memory[0].afterTotal - memory[0].afterFirst)
            let requests = Double(memory[1].requests - 1_000)
            summary.atMost("rss-beyond-raw", Double(beyond) * 1024 / requests, "bytes/request", 16, digits: 1)
        }
        return summary
    }

    var text: String {
        var lines: [String] = []
        func pad(_ text: String, _ width: Int) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
        func number(_ value: Double, _ digits: Int = 0) -> String { String(format: "%.\(digits)f", value) }
        let ns = Dictionary(uniqueKeysWithValues: chain.map { ($0.label, $0.nanoseconds) })
        lines.append("Networking benchmarks: release build, median of \(rounds) rounds, all figures from this one run")
        lines.append("")
        lines.append("1. Chain overhead in memory (canned response, no I/O; \(payloadBytes)-byte JSON payload)")
        lines.append("   " + pad("variant", 40) + pad("ns/request", 14) + "requests/s")
        for row in chain {
            lines.append("   " + pad(row.label, 40) + pad(number(row.nanoseconds), 14) + number(1e9 / row.nanoseconds))
        }
        let overhead = (ns["(c) client, full chain of six"] ?? .nan) - (ns["(a) transport directly"] ?? .nan)
        let overheadDecoding =
            (ns["(c) client, full chain + decode"] ?? .nan) - (ns["(a) transport + decode 1 KB"] ?? .nan)
        lines.append("   (c) - (a): \(number(overhead)) ns per request; with decoding: \(number(overheadDecoding)) ns")
        lines.append(
            "   * a transport the time limit cannot stop itself (as MockTransport): each attempt runs in a task of its own"
        )
        lines.append("")
        lines.append(
            "2. End to end on loopback (nginx, 1 KB JSON): raw Foundation data(for:) vs NetworkClient + full chain")
        lines.append(
            "   " + pad("callers", 10) + pad("raw req/s", 12) + pad("client, no behaviors", 22)
                + pad("client + chain", 16) + "ratio chain/raw")
        for row in loopback.rows {
            lines.append(
                "   " + pad("\(row.concurrency)", 10) + pad(number(row.raw), 12) + pad(number(row.bare), 22)
                    + pad(number(row.client), 16) + number(row.ratio, 3))
        }
        let share = overhead / loopback.roundTripNanoseconds * 100
        lines.append("")
        lines.append(
            "3. Overhead share of a round trip: (c) - (a) = \(number(overhead)) ns of a \(number(loopback.roundTripNanoseconds / 1000, 1)) µs "
                + "loopback round trip = \(number(share, 3)) %")
        lines.append("")
        let total = memory.first?.requests ?? 0
        lines.append(
            "4. Memory: peak RSS after 1k and after \(total / 1000)k end-to-end requests, each side in a fresh process")
        for side in memory {
            let label = side.name == "raw" ? "raw Foundation data(for:)" : "NetworkClient + full chain"
            lines.append(
                "   " + pad(label, 28) + pad("\(number(Double(side.afterFirst) / 1024, 1)) MiB", 12)
                    + pad("\(number(Double(side.afterTotal) / 1024, 1)) MiB", 12) + "growth \(number(side.growth, 2)) %"
            )
        }
        if memory.count == 2 {
            let extra = Double(
                memory[1].afterTotal - memory[1].afterFirst - memory[0].afterTotal + memory[0].afterFirst)
            lines.append("   growth of the client beyond Foundation's own: \(number(extra / 1024, 2)) MiB")
        }
        for side in timerMemory {
            lines.append(
                "   timer path, in memory: \(side.requests / 1000)k calls through a transport without its own limits,"
                    + " 60 s timeout: \(number(Double(side.afterFirst) / 1024, 1)) MiB after 1k, "
                    + "\(number(Double(side.afterTotal) / 1024, 1)) MiB after all")
        }
        lines.append("")
        lines.append(
            "Raw data(for:) is the speed baseline only: on this Foundation it can deadlock when its task is cancelled"
                + " (swift-corelibs-foundation #5412); the client's transport cannot.")
        return lines.joined(separator: "\n")
    }
}
