// swift-format-ignore-file
import Foundation
import Networking
import NetworkingTesting
import Testing

// The cookies example of README.md's "HTTP cache and cookies" section, verbatim (indentation aside).

func cookiesExample() -> (NetworkClient, InMemoryCookieJar) {
let cookieJar = InMemoryCookieJar()
let shopClient = NetworkClient(
    baseURL: URL(string: "https://shop.example.com")!,
    behavior: CombinedBehavior([.retry(), .cookies(jar: cookieJar)])
)
return (shopClient, cookieJar)
}

@Suite struct ReadmeCookiesSampleTests {
    @Test func theCookiesExampleInReadmeIsCompiledHere() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let block = try #require(
            readme.components(separatedBy: "```swift\n").first { $0.hasPrefix("let cookieJar = ") }?
                .components(separatedBy: "\n```").first)
        let sample = PluginsSamplesTests.normalized(Substring(block))
        let here = PluginsSamplesTests.normalized(Substring(try String(contentsOfFile: #filePath, encoding: .utf8)))
        #expect(sample.count == 5)
        #expect(here.indices.contains { start in
            start + sample.count <= here.count && Array(here[start..<start + sample.count]) == sample
        }, "README.md's cookies example is not the code compiled here")
        #expect(cookiesExample().1.all.isEmpty)
    }
}
