import Foundation
import Networking
import NetworkingTestSupport

/// The soak's counts, shared by its 64 callers.
final class LockedTally: Sendable {
    private struct State {
        var completed = 0
        var counts: [String: Int] = [:]
        var unexpected = 0
        var examples: [String] = []
    }
    private let state = LockedBox(State())

    var completed: Int { state.withLock { $0.completed } }

    /// Counts one call's outcome against what its fault (and its cancellation) allow.
    func record(index: Int, outcome: (SoakBenchmark.Outcome, SoakBenchmark.Fault, Bool)) {
        let (ended, fault, cancelled) = outcome
        let expected = ended == fault.expected || (cancelled && ended == .cancelled)
        state.withLock { state in
            state.completed += 1
            state.counts["\(fault.rawValue)\(cancelled ? " (cancelled)" : ""): \(ended)", default: 0] += 1
            if !expected {
                state.unexpected += 1
                if state.examples.count < 10 { state.examples.append("call \(index) /\(fault.rawValue): \(ended)") }
            }
        }
    }

    var summary: ([String: Int], Int, [String]) {
        state.withLock { ($0.counts, $0.unexpected, $0.examples) }
    }
}

/// `Tests/Servers/soak_server.py`, started for the soak and stopped after it.
final class SoakServer: Sendable {
    let baseURL: URL
    /// The server's process, in a box: `Process` was not `Sendable` in older Apple SDKs
    /// and is not known to be in Xcode 16.0's, so a `Sendable` type does not store it bare.
    private let process: LockedBox<ChildProcess>

    init() throws {
        let script = TestServers.directory.appendingPathComponent("soak_server.py")
        let portFile = FileManager.default.temporaryDirectory.appendingPathComponent("soak-\(UUID().uuidString).port")
        let process = ChildProcess()
        self.process = LockedBox(process)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", script.path, "--port-file", portFile.path,
            "--parent-pid", "\(ProcessInfo.processInfo.processIdentifier)",
        ]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        for _ in 0..<200 {
            if let text = try? String(contentsOf: portFile, encoding: .utf8),
                let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                try? FileManager.default.removeItem(at: portFile)
                baseURL = URL(string: "http://127.0.0.1:\(port)")!
                return
            }
            guard process.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        process.terminate()
        throw FaultServerError("soak_server.py did not report a port within 10 s")
    }

    /// The connections the server accepted so far.
    func connections(client: NetworkClient) async throws -> Int {
        struct Stats: Decodable, Sendable { let connections: Int }
        return try await client.send(NetworkRequest<Stats>(path: "/__stats")).connections
    }

    func stop() {
        process.withLock { if $0.isRunning { $0.terminate() } }
    }
}

extension SoakBenchmark.Result {
    /// The report: outcomes by fault, then the figures.
    var text: String {
        var lines = ["Soak: outcomes by fault (calls)"]
        for (key, count) in counts.sorted(by: { $0.key < $1.key }) { lines.append("  \(key): \(count)") }
        for example in examples { lines.append("  unexpected: \(example)") }
        let total = counts.values.reduce(0, +)
        lines.append(
            String(
                format: "  %d calls in %.0f s (%.0f calls/s), %d connections opened by the server's count",
                total, seconds, Double(total) / seconds, serverConnections))
        lines.append(
            "  resident memory: \(rssAfterWarmUpKiB) KiB after the warm-up, \(rssAtEndKiB) KiB at the end;"
                + " open descriptors: \(descriptorsBefore) before the client, \(descriptorsAfter) after it")
        if !newDescriptors.isEmpty {
            lines.append("  descriptors opened and kept: \(newDescriptors.joined(separator: ", "))")
        }
        return lines.joined(separator: "\n")
    }

    /// The soak's targets.
    func addTargets(to summary: inout TargetSummary) {
        summary.atMost("soak-rss-growth", Double(rssAtEndKiB - rssAfterWarmUpKiB) / 1024, "MiB", 2, digits: 2)
        summary.atMost("soak-fd-delta", Double(descriptorsAfter - descriptorsBefore), "descriptors", 0)
        summary.atMost("soak-unexpected", Double(unexpected), "calls", 0)
        summary.atMost("soak-activity-at-end", Double(activityAtEnd), "calls in flight", 0)
    }
}
