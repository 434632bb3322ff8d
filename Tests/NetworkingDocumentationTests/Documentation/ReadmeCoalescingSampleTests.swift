// swift-format-ignore-file
import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

// The coalescing example of README.md's Resilience section, verbatim (indentation aside), so the compiler checks it.

// Types and functions local to a function, so that this `Profile` is not README's.
func coalescingExample() {
struct Profile: Codable, Sendable { let id: Int; let name: String }

func profileTwice(tokens: InMemoryTokenStore) async throws -> (Profile, Profile) {
    let coalescedClient = NetworkClient(
        baseURL: URL(string: "https://api.example.com/v1")!,
        behavior: CombinedBehavior([.retry(), .authorization(.bearer, store: tokens), .coalescing()])
    )
    async let profile = coalescedClient.send(NetworkRequest<Profile>(path: "/profiles/42"))
    async let again = coalescedClient.send(NetworkRequest<Profile>(path: "/profiles/42"))  // the same transport call
    return try await (profile, again)
}
_ = profileTwice
}

@Suite struct ReadmeCoalescingSampleTests {
    @Test func theCoalescingExampleInReadmeIsCompiledHere() throws {
        let block = try DocumentSamples.swiftBlock(in: "Sources/Networking/Networking.docc/Resilience.md") { $0.contains("let coalescedClient = ") }
        #expect(DocumentSamples.lines(of: block).count == 10)
        #expect(try DocumentSamples.isCompiled(block, in: #filePath), "Resilience.md's coalescing example is not the code compiled here")
    }
}
