import Foundation
import Testing
import NetworkingTestSupport

/// Finds a Swift sample in README.md or Plugins.md and checks that a test file compiles exactly that code.
enum DocumentSamples {
    /// The package's root folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The text of the first ```swift block of `document` that `matches` accepts.
    static func swiftBlock(in document: String, where matches: (String) -> Bool) throws -> String {
        let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
        // Each block alone, so that `matches` never sees the prose after a block.
        let block = text.components(separatedBy: "```swift\n").dropFirst()
            .compactMap { $0.components(separatedBy: "\n```").first }.first(where: matches)
        return try #require(block)
    }

    /// The non-empty lines of `text`, trimmed: indentation does not count, nor do imports (a sample shows the ones
    /// it needs alone, a test file has its own) and the first-line markers of a sample that is not a file of its own
    /// (`// Fragment: …`, `// Continues … above: …`; see Tests/Tools/compile_doc_snippets.py).
    static func lines(of text: String) -> [String] {
        PluginsSamplesTests.normalized(Substring(text)).filter {
            !$0.hasPrefix("import ") && !$0.hasPrefix("// Fragment") && !$0.hasPrefix("// Continues ")
        }
    }

    /// Whether `sample`'s lines appear in a row, indentation aside, in the file at `path`.
    static func isCompiled(_ sample: String, in path: String) throws -> Bool {
        let wanted = lines(of: sample)
        let here = lines(of: try String(contentsOfFile: path, encoding: .utf8))
        return !wanted.isEmpty
            && here.indices.contains { start in
                start + wanted.count <= here.count && Array(here[start..<start + wanted.count]) == wanted
            }
    }
}
