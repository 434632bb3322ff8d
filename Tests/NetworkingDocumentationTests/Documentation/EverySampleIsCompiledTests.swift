import Foundation
import Testing
import NetworkingTestSupport

/// Every Swift sample a user can read in README.md, Plugins.md and the DocC articles appears, line for line
/// (indentation, imports and a first-line marker aside), in a test file the compiler builds: a sample that no longer
/// compiles fails the build, and one edited in its document but not in its test fails here. That each sample also
/// compiles alone, in a file of its own with only the imports it shows, is `make lint`'s check
/// (Tests/Tools/compile_doc_snippets.py).
@Suite struct EverySampleIsCompiledTests {
    static let documents: [String] = {
        let articles =
            (try? FileManager.default.contentsOfDirectory(
                atPath: DocumentSamples.root.appendingPathComponent("Sources/Networking/Networking.docc").path)) ?? []
        return ["README.md", "Plugins.md"]
            + articles.filter { $0.hasSuffix(".md") }.sorted().map { "Sources/Networking/Networking.docc/\($0)" }
    }()

    /// The text of every Swift file under Tests/.
    static let testFiles: [String] = {
        let tests = DocumentSamples.root.appendingPathComponent("Tests")
        let files =
            FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        return files.compactMap { try? String(contentsOf: $0, encoding: .utf8) }
    }()

    @Test(arguments: documents)
    func everySwiftBlockOfTheDocumentIsCompiledByATest(document: String) throws {
        let text = try String(contentsOf: DocumentSamples.root.appendingPathComponent(document), encoding: .utf8)
        let blocks = text.components(separatedBy: "```swift\n").dropFirst().compactMap {
            $0.components(separatedBy: "\n```").first
        }
        let compiled = Self.testFiles.map { DocumentSamples.lines(of: $0) }
        for block in blocks {
            let wanted = DocumentSamples.lines(of: block)
            let found = compiled.contains { here in
                here.indices.contains { start in
                    start + wanted.count <= here.count && Array(here[start..<start + wanted.count]) == wanted
                }
            }
            #expect(found, "\(document): this sample is compiled by no test:\n\(block)")
        }
    }
}
