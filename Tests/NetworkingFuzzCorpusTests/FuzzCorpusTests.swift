import Foundation
import Testing

@testable import Fuzz

/// Every seed of `make fuzz` and every input a fuzzing run ever crashed on (Tests/Fuzz/Regressions, kept with the
/// fix) goes through its harness on every `make test`: the invariants the fuzzer checks hold for them here too, so
/// a crash found once is a unit test from then on.
@Suite struct FuzzCorpusTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    /// The files of `folder/harness`, sorted.
    static func inputs(_ folder: String, _ harness: Harness) -> [URL] {
        let directory = root.appendingPathComponent(folder).appendingPathComponent(harness.rawValue)
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        return files.filter { !$0.lastPathComponent.hasPrefix(".") }.sorted { $0.path < $1.path }
    }

    @Test(arguments: Harness.allCases)
    func everySeedAndRegressionHoldsTheHarnessInvariants(harness: Harness) throws {
        let seeds = Self.inputs("Corpus", harness)
        #expect(!seeds.isEmpty, "every harness has a seed corpus")
        for file in seeds + Self.inputs("Regressions", harness) {
            harness.run(try Data(contentsOf: file))
        }
    }

    @Test func theFirstCrashFoundIsKeptAsARegression() {
        // make fuzz's first run: a head whose final status line was `HTTP/1.1 0 OK` completed with status 0.
        #expect(Self.inputs("Regressions", .head).contains { $0.lastPathComponent == "status-zero-after-interim" })
    }
}
