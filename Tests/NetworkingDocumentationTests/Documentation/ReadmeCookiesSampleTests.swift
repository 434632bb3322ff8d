// swift-format-ignore-file
import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

// The cookies example of README.md's "HTTP cache and cookies" section, verbatim (indentation aside).

func cookiesExample() throws -> (NetworkClient, InMemoryCookieJar) {
let cookieJar = InMemoryCookieJar()
let shopClient = NetworkClient(
    baseURL: URL(string: "https://shop.example.com")!,
    behavior: CombinedBehavior([.retry(), .cookies(jar: cookieJar)])
)
return (shopClient, cookieJar)
}

@Suite struct ReadmeCookiesSampleTests {
    @Test func theCookiesExampleInReadmeIsCompiledHere() throws {
        let block = try DocumentSamples.swiftBlock(in: "Sources/Networking/Networking.docc/HTTPCacheAndCookies.md") { $0.contains("let cookieJar = ") }
        #expect(DocumentSamples.lines(of: block).count == 5)
        #expect(try DocumentSamples.isCompiled(block, in: #filePath), "HTTPCacheAndCookies.md's cookies example is not the code compiled here")
        #expect(try cookiesExample().1.all.isEmpty)
    }
}
