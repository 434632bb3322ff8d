import Foundation
import Testing
import NetworkingTestSupport

/// Every ```swift block of a doc comment under Sources/ (the library targets) is compiled in
/// DocCommentSamples.swift, which `make doc-samples` writes: a sample a user reads in Quick Help that no longer
/// compiles fails the build, and one edited in its comment but not regenerated fails here. A block whose first line
/// is `// Fragment` is not compiled, and says why.
@Suite struct DocCommentSamplesTests {
    /// Each sample of the doc comments: where it is, and its lines.
    static func samples() throws -> [(place: String, lines: [String])] {
        let sources = DocumentSamples.root.appendingPathComponent("Sources")
        let files =
            (FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL } ?? [])
            .filter { $0.pathExtension == "swift" && !$0.path.contains("/Benchmarks/") && !$0.path.contains("/Demo/") }
        var found: [(String, [String])] = []
        for file in files {
            var current: [String]?
            for (number, line) in try String(contentsOf: file, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false
            ).enumerated() {
                let text = line.trimmingCharacters(in: .whitespaces)
                guard text.hasPrefix("///") else {
                    current = nil
                    continue
                }
                let body = String(text.dropFirst(3).drop { $0 == " " })
                if current == nil, body == "```swift" {
                    current = []
                } else if let lines = current, body == "```" {
                    if lines.first?.hasPrefix("// Fragment") != true {
                        found.append(("\(file.lastPathComponent):\(number)", lines))
                    }
                    current = nil
                } else if current != nil {
                    let content = text.dropFirst(3)
                    current?.append(String(content.first == " " ? content.dropFirst() : content))
                }
            }
        }
        return found
    }

    /// The generated file's lines as the samples read: indentation, the `let _ = ` the generator puts before a
    /// value a sample only shows, and its uses of the sample's names at the end of each function left out.
    static func compiledLines() throws -> [String] {
        let file = DocumentSamples.root.appendingPathComponent(
            "Tests/NetworkingDocumentationTests/DocComments/DocCommentSamples.swift")
        return DocumentSamples.lines(of: try String(contentsOf: file, encoding: .utf8)).compactMap { line in
            guard line.hasPrefix("let _ = ") else { return line }
            let rest = String(line.dropFirst(8))
            let use = rest.replacingOccurrences(of: "try await ", with: "")
            return use.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } ? nil : rest
        }
    }

    @Test func everyDocCommentSampleIsCompiled() throws {
        let samples = try Self.samples()
        let compiled = try Self.compiledLines()
        #expect(samples.count >= 80)
        for (place, lines) in samples {
            let wanted = DocumentSamples.lines(of: lines.joined(separator: "\n"))
            let found = compiled.indices.contains { start in
                start + wanted.count <= compiled.count && Array(compiled[start..<start + wanted.count]) == wanted
            }
            #expect(found, "\(place): this doc-comment sample is not in DocCommentSamples.swift; run make doc-samples")
        }
        #expect(
            compiled.filter { $0.hasPrefix("@Sendable func docSample") }.count == samples.count,
            "DocCommentSamples.swift holds samples no doc comment has any more; run make doc-samples")
    }
}
