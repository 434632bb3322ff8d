// swift-format-ignore-file
import Foundation
import Networking
import NetworkingTesting
import Testing

// The coalescing example of README.md's Resilience section, verbatim (indentation aside), so the compiler checks it.

func coalescingExample(tokens: InMemoryTokenStore) async throws -> (Profile, Data) {
let coalescedClient = NetworkClient(
    baseURL: URL(string: "https://api.example.com/v1")!,
    behavior: CombinedBehavior([.retry(), .authorization(.bearer, store: tokens), .coalescing()])
)
async let profile = coalescedClient.send(NetworkRequest<Profile>(path: "/profiles/42"))
async let raw = coalescedClient.send(NetworkRequest<Data>(path: "/profiles/42"))  // the same transport call
return try await (profile, raw)
}

@Suite struct ReadmeCoalescingSampleTests {
    @Test func theCoalescingExampleInReadmeIsCompiledHere() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let block = try #require(
            readme.components(separatedBy: "```swift\n").first { $0.hasPrefix("let coalescedClient = ") }?
                .components(separatedBy: "\n```").first)
        let sample = PluginsSamplesTests.normalized(Substring(block))
        let here = PluginsSamplesTests.normalized(Substring(try String(contentsOfFile: #filePath, encoding: .utf8)))
        #expect(sample.count == 6)
        #expect(here.indices.contains { start in
            start + sample.count <= here.count && Array(here[start..<start + sample.count]) == sample
        }, "README.md's coalescing example is not the code compiled here")
    }
}
