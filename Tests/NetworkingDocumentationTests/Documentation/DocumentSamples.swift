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
        return try #require(
            text.components(separatedBy: "```swift\n").dropFirst().first(where: matches)?
                .components(separatedBy: "\n```").first)
    }

    /// The non-empty lines of `text`, trimmed: indentation does not count.
    static func lines(of text: String) -> [String] {
        PluginsSamplesTests.normalized(Substring(text))
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
