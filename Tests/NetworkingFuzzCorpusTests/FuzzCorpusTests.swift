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

    @Test func theGreekQuestionMarkThatFailedCIIsKeptAsARegression() throws {
        // make fuzz on a fresh clone: the set-cookie harness's own check took U+037E (bytes CD BE) for ';', which
        // Swift's Character comparison does; the parser, reading octets, had kept it in the value, as it should.
        let file = try #require(
            Self.inputs("Regressions", .setCookie).first { $0.lastPathComponent == "greek-question-mark-in-a-value" })
        let bytes = try Data(contentsOf: file)
        #expect(Array(bytes) == [0x9F, 0xC2, 0xCD, 0xBE, 0x78, 0x3D, 0x3B, 0x31, 0x2D, 0x4D, 0x61])
        Harness.setCookie.run(bytes)
    }
}
