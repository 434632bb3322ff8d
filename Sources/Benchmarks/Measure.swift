import Foundation

/// Timing and statistics for the benchmarks. Each figure is the median of several rounds measured in one run.
enum Measure {
    /// Nanoseconds per operation for `iterations` sequential calls of `body`.
    static func nanosecondsPerCall(iterations: Int, _ body: () async throws -> Void) async rethrows -> Double {
        let start = ContinuousClock.now
        for _ in 0..<iterations { try await body() }
        return (ContinuousClock.now - start).nanoseconds / Double(iterations)
    }

    /// Requests per second for `total` calls spread over `concurrency` tasks, each calling `body` in turn.
    static func throughput(total: Int, concurrency: Int, _ body: @escaping @Sendable () async throws -> Void)
        async throws -> Double
    {
        let perTask = total / concurrency
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<concurrency {
                group.addTask { for _ in 0..<perTask { try await body() } }
            }
            try await group.waitForAll()
        }
        return Double(perTask * concurrency) / (ContinuousClock.now - start).seconds
    }

    /// The same, each of the `concurrency` tasks making its calls inside `withTaskExecutorPreference(executor)`, as
    /// a caller preferring `CurlTransport.executor` (the loop thread) would: a call resumes on the thread that
    /// finished its transfer, with no pool thread to wake (issue 43).
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
    static func throughputPreferring(
        _ executor: any TaskExecutor, total: Int, concurrency: Int,
        _ body: @escaping @Sendable () async throws -> Void
    ) async throws -> Double {
        let perTask = total / concurrency
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    try await withTaskExecutorPreference(executor) { for _ in 0..<perTask { try await body() } }
                }
            }
            try await group.waitForAll()
        }
        return Double(perTask * concurrency) / (ContinuousClock.now - start).seconds
    }

    /// The median of `values`.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// This process's context switches (voluntary, involuntary) and CPU seconds (user plus system) so far, every
    /// thread counted.
    static func usage() -> (voluntary: Int, involuntary: Int, cpu: Double) {
        var usage = rusage()
        #if os(Linux)
            getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return (usage.ru_nvcsw, usage.ru_nivcsw, seconds(usage.ru_utime) + seconds(usage.ru_stime))
    }

    /// Peak resident memory of this process in KiB (VmHWM on Linux, ru_maxrss elsewhere).
    static func peakResidentKiB() -> Int {
        #if os(Linux)
            return statusKiB("VmHWM:")
        #else
            var usage = rusage()
            getrusage(RUSAGE_SELF, &usage)
            return Int(usage.ru_maxrss) / 1024
        #endif
    }

    /// Resident memory of this process now in KiB (VmRSS on Linux; the peak elsewhere, which only over-states
    /// growth).
    static func residentKiB() -> Int {
        #if os(Linux)
            return statusKiB("VmRSS:")
        #else
            return peakResidentKiB()
        #endif
    }

    #if os(Linux)
        /// A KiB figure of /proc/self/status, by its line's label.
        private static func statusKiB(_ label: String) -> Int {
            let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
            for line in status.split(separator: "\n") where line.hasPrefix(label) {
                return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
            }
            return 0
        }
    #endif
}

extension Duration {
    /// The duration in nanoseconds.
    var nanoseconds: Double {
        Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9
    }
}
