// swift-format-ignore-file
import Foundation
import Networking
import Testing

// The HTTP cache example of README.md, verbatim (indentation aside), so the compiler checks it; the suite below
// checks that README.md still shows exactly this code.

func readmeCacheExample() -> NetworkClient {
let cacheFolder = FileManager.default.temporaryDirectory.appendingPathComponent("api-cache")
let cachedClient = NetworkClient(
    baseURL: URL(string: "https://api.example.com/v1")!,
    behavior: CombinedBehavior([
        .retry(),
        .authorization(.bearer, store: SharedNetworkClient.tokens),
        .httpCache(store: DiskCacheStore(directory: cacheFolder)) { event in
            if event.kind == .revalidated { print("served from cache (revalidated): \(event.requestName)") }
        },
    ])
)
return cachedClient
}

@Suite struct ReadmeCacheSamplesTests {
    @Test func theCacheExampleInReadmeIsCompiledHereAndPutsTheCacheAfterAuthorization() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let block = try #require(
            readme.components(separatedBy: "```swift\n").first { $0.hasPrefix("let cacheFolder = ") }?
                .components(separatedBy: "\n```").first)
        let sample = PluginsSamplesTests.normalized(Substring(block))
        let here = PluginsSamplesTests.normalized(Substring(try String(contentsOfFile: #filePath, encoding: .utf8)))
        #expect(sample.count == 11)
        #expect(here.indices.contains { start in
            start + sample.count <= here.count && Array(here[start..<start + sample.count]) == sample
        }, "README.md's cache example is not the code compiled here")

        let behavior = try #require(readmeCacheExample().configuration.behavior as? CombinedBehavior)
        #expect(behavior.behaviors.count == 3)
        #expect(behavior.behaviors[1] is AuthorizationBehavior)
        let cache = try #require(behavior.behaviors.last as? HTTPCacheBehavior)
        #expect(cache.store is DiskCacheStore)
    }
}
