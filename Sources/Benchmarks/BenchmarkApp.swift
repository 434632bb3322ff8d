import Foundation

/// `make bench`: measures the cost of the client side by side in one run and prints one table.
///
/// Options: `--quick` (fewer rounds, for a smoke test), `--rounds N`.
@main
struct BenchmarkApp {
    static func main() async {
        let arguments = CommandLine.arguments
        let quick = arguments.contains("--quick")
        let rounds = arguments.firstIndex(of: "--rounds").flatMap { Int(arguments[$0 + 1]) } ?? (quick ? 3 : 7)
        do {
            if let index = arguments.firstIndex(of: "--profile"), index + 1 < arguments.count {
                // For instruction-count profiling: one in-memory variant, no server.
                try await ChainBenchmark(rounds: 1, iterations: 20_000).profile(variant: arguments[index + 1])
                return
            }
            // Loopback (with its memory phase) first: peak RSS is a high-water mark of the whole process.
            let loopback = try await LoopbackBenchmark(
                rounds: rounds, requestsPerRound: quick ? 300 : 2_000,
                memoryRequests: (first: 1_000, total: quick ? 5_000 : 20_000)
            ).run(payload: ChainBenchmark.Payload.oneKilobyte)
            let chain = try await ChainBenchmark(rounds: rounds, iterations: quick ? 5_000 : 50_000).run()
            print(Report(rounds: rounds, chain: chain.rows, payloadBytes: chain.payloadBytes, loopback: loopback).text)
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
            "   * a transport that does not keep time limits itself: the client races it against a timer task")
        lines.append("")
        lines.append(
            "2. End to end on loopback (nginx, 1 KB JSON): raw Foundation data(for:) vs NetworkClient + full chain")
        lines.append(
            "   " + pad("callers", 10) + pad("raw req/s", 12) + pad("client, no behaviors", 22)
                + pad("client + chain", 16) + "ratio chain/raw (target >= 0.97)")
        for row in loopback.rows {
            lines.append(
                "   " + pad("\(row.concurrency)", 10) + pad(number(row.raw), 12) + pad(number(row.bare), 22)
                    + pad(number(row.client), 16) + number(row.ratio, 3) + (row.ratio >= 0.97 ? "  met" : "  MISSED"))
        }
        let share = overhead / loopback.roundTripNanoseconds * 100
        lines.append("")
        lines.append(
            "3. Overhead share of a round trip: (c) - (a) = \(number(overhead)) ns of a \(number(loopback.roundTripNanoseconds / 1000, 1)) µs "
                + "loopback round trip = \(number(share, 3)) % (target < 0.5 %)" + (share < 0.5 ? "  met" : "  MISSED"))
        let growth = Double(loopback.peakAfter20k - loopback.peakAfter1k) / Double(loopback.peakAfter1k) * 100
        lines.append("")
        lines.append(
            "4. Memory: peak RSS \(number(Double(loopback.peakAfter1k) / 1024, 1)) MiB after 1k requests, "
                + "\(number(Double(loopback.peakAfter20k) / 1024, 1)) MiB after 20k: growth \(number(growth, 2)) % (target < 5 %)"
                + (growth < 5 ? "  met" : "  MISSED"))
        return lines.joined(separator: "\n")
    }
}
