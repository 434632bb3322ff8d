// swift-format-ignore-file
import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

// The coalescing example of README.md's Resilience section, verbatim (indentation aside), so the compiler checks it.

func coalescingExample(tokens: InMemoryTokenStore) async throws -> (Profile, Profile) {
let coalescedClient = NetworkClient(
    baseURL: URL(string: "https://api.example.com/v1")!,
    behavior: CombinedBehavior([.retry(), .authorization(.bearer, store: tokens), .coalescing()])
)
async let profile = coalescedClient.send(NetworkRequest<Profile>(path: "/profiles/42"))
async let again = coalescedClient.send(NetworkRequest<Profile>(path: "/profiles/42"))  // the same transport call
return try await (profile, again)
}

@Suite struct ReadmeCoalescingSampleTests {
    @Test func theCoalescingExampleInReadmeIsCompiledHere() throws {
        let block = try DocumentSamples.swiftBlock(in: "Sources/Networking/Networking.docc/Resilience.md") { $0.hasPrefix("let coalescedClient = ") }
        #expect(DocumentSamples.lines(of: block).count == 6)
        #expect(try DocumentSamples.isCompiled(block, in: #filePath), "Resilience.md's coalescing example is not the code compiled here")
    }
}
