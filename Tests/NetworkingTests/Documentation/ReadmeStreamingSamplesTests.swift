// swift-format-ignore-file
import Foundation
import Networking
import Testing

// The streaming samples of README.md, verbatim (indentation aside); the suite checks README.md still shows them.

func serverSentEventsSample() -> [ServerSentEvent] {
var decoder = ServerSentEventDecoder()
let events = decoder.decode(Data("id: 7\nevent: tick\ndata: a\ndata: b\n\n".utf8))
// events == [ServerSentEvent(event: "tick", data: "a\nb", id: "7")]
return events
}

@Suite struct ReadmeStreamingSamplesTests {
    static func readmeBlock(startingWith prefix: String) throws -> [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let block = try #require(
            readme.components(separatedBy: "```swift\n").first { $0.hasPrefix(prefix) }?
                .components(separatedBy: "\n```").first)
        return PluginsSamplesTests.normalized(Substring(block))
    }

    static func isCompiledHere(_ sample: [String]) throws -> Bool {
        let here = PluginsSamplesTests.normalized(Substring(try String(contentsOfFile: #filePath, encoding: .utf8)))
        return here.indices.contains { start in
            start + sample.count <= here.count && Array(here[start..<start + sample.count]) == sample
        }
    }

    @Test func theServerSentEventsSampleIsCompiledHereAndDoesWhatItsCommentSays() throws {
        let sample = try Self.readmeBlock(startingWith: "var decoder = ServerSentEventDecoder()")
        #expect(sample.count == 3)
        #expect(try Self.isCompiledHere(sample))
        #expect(serverSentEventsSample() == [ServerSentEvent(event: "tick", data: "a\nb", id: "7")])
    }
}
