import Foundation

/// Counts the futex system calls of a child process and all its threads: with perf's kernel tracepoint
/// (`syscalls:sys_enter_futex`, nearly free: the child runs at full speed), or with `strace -f -c` where perf or
/// the tracepoint is missing (every system call then stops the child, which slows it and can change how often its
/// threads find each other asleep: the line says which counter ran).
enum FutexCounter {
    case perf
    case strace

    /// The counter this machine has: perf if its futex tracepoint counts, strace otherwise.
    static func find() throws -> FutexCounter {
        if let (_, log) = try? CountedPhase.launch(["perf", "stat", "-x,", "-e", "syscalls:sys_enter_futex", "true"]),
            log.contains("sys_enter_futex"), !log.contains("not supported")
        {
            return .perf
        }
        if (try? CountedPhase.launch(["strace", "-V"])) != nil { return .strace }
        throw BenchmarkError(
            "--counts needs perf (Debian: linux-perf) or strace to count futex calls; `make bench` installs them")
    }

    /// The command prefix that runs a child under the counter, its report written to `path`.
    func command(writingTo path: String) -> [String] {
        switch self {
        case .perf: ["perf", "stat", "-x,", "-e", "syscalls:sys_enter_futex", "-o", path, "--"]
        case .strace: ["strace", "-f", "-c", "-e", "trace=futex", "-o", path, "--"]
        }
    }

    /// The futex calls in a report: perf's CSV line `12345,,syscalls:sys_enter_futex,...`, or strace's summary
    /// row `... calls errors futex`.
    func read(_ report: String) throws -> Int {
        for line in report.split(separator: "\n") where line.contains("futex") {
            switch self {
            case .perf:
                if let first = line.split(separator: ",", omittingEmptySubsequences: false).first,
                    let count = Int(first)
                {
                    return count
                }
            case .strace:
                // `100.00    0.002672          41        65         1 futex`: calls is the fourth column.
                let columns = line.split(separator: " ")
                if columns.last == "futex", columns.count >= 5, let count = Int(columns[3]) { return count }
            }
        }
        throw BenchmarkError("no futex count in the \(self) report: \(report.prefix(400))")
    }
}
