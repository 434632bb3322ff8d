// swift-format-ignore-file
import Foundation
import Networking
import Testing
import NetworkingTestSupport

// The HTTP cache example of README.md, verbatim (indentation aside), so the compiler checks it; the suite below
// checks that README.md still shows exactly this code.

func readmeCacheExample() -> NetworkClient {
let tokens = InMemoryTokenStore()  // the app's one token store (API.tokens in Getting started)
let cacheFolder = FileManager.default.temporaryDirectory.appendingPathComponent("api-cache")
let cachedClient = NetworkClient(
    baseURL: URL(string: "https://api.example.com/v1")!,
    behavior: CombinedBehavior([
        .retry(),
        .authorization(.bearer, store: tokens),
        .httpCache(store: DiskHTTPCacheStore(directory: cacheFolder)) { event in
            if event.kind == .revalidated { print("served from cache (revalidated): \(event.requestName)") }
        },
    ])
)
return cachedClient
}

@Suite struct ReadmeCacheSamplesTests {
    @Test func theCacheExampleInReadmeIsCompiledHereAndPutsTheCacheAfterAuthorization() throws {
        let block = try DocumentSamples.swiftBlock(in: "Sources/Networking/Networking.docc/HTTPCacheAndCookies.md") { $0.contains("let cacheFolder = ") }
        #expect(DocumentSamples.lines(of: block).count == 12)
        #expect(try DocumentSamples.isCompiled(block, in: #filePath), "HTTPCacheAndCookies.md's cache example is not the code compiled here")

        let behavior = try #require(readmeCacheExample().configuration.behavior as? CombinedBehavior)
        #expect(behavior.behaviors.count == 3)
        #expect(behavior.behaviors[1] is AuthorizationBehavior)
        let cache = try #require(behavior.behaviors.last as? HTTPCacheBehavior)
        #expect(cache.store is DiskHTTPCacheStore)
    }
}
