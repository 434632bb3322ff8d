import Foundation
import NetworkingTestSupport

/// A phase measured in a fresh process of this benchmark's own binary, so that its memory and counts start from
/// nothing: the parent runs `Benchmarks --memory-phase …` (say) and reads the numbers it prints.
enum Phase {
    /// Runs this binary with `arguments`, waits for it, and returns its exit status and what it printed, whole and
    /// split at white space.
    static func run(_ arguments: [String]) throws -> (status: Int32, words: [Substring], output: String) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output.split(whereSeparator: \.isWhitespace), output)
    }
}
