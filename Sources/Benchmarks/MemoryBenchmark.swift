import Foundation
import NetworkingTestSupport

/// Part 4: peak resident memory after 1k and after 20k end-to-end requests, for Foundation alone and for the
/// client with the full chain, each measured in a fresh process (peak RSS is a high-water mark of the whole
/// process) started from this executable with `--memory-phase SIDE FIRST TOTAL`.
struct MemoryBenchmark {
    struct Side {
        let name: String
        let afterFirst: Int
        let afterTotal: Int
        let requests: Int
        var growth: Double { Double(afterTotal - afterFirst) / Double(afterFirst) * 100 }
    }

    let first: Int
    let total: Int

    /// The sides measured: Foundation alone and the client with the full chain on loopback, and, in memory, the
    /// timer path of a transport without time limits of its own.
    var sides = ["raw", "client"]

    func run() throws -> [Side] {
        try sides.map { side in
            let (status, words, output) = try Phase.run(["--memory-phase", side, "\(first)", "\(total)"])
            let numbers = words.compactMap { Int($0) }
            guard status == 0, numbers.count == 2 else {
                throw BenchmarkError("the memory phase for \(side) failed: \(output)")
            }
            return Side(name: side, afterFirst: numbers[0], afterTotal: numbers[1], requests: total)
        }
    }
}
