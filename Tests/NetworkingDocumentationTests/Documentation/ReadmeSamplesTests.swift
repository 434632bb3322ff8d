// swift-format-ignore-file
import Foundation
import Networking
import NetworkingCurl
import Testing
import NetworkingTestSupport

// The usage example of README.md, verbatim (indentation and imports aside), so the compiler checks it; the suite
// below checks that README.md still shows exactly this code.

struct Profile: Codable, Sendable { let id: Int; let name: String }

// One client for the whole app, built once with the behaviors every call needs. A client-wide behavior that
// cannot work (two retries, say) stops the app right here, the first time it runs, with a message naming both.
enum API {
    static let tokens = InMemoryTokenStore()
    static let client = NetworkClient(
        baseURL: URL(string: "https://api.example.com/v1")!,
        behavior: CombinedBehavior([
            .activityCounter { isBusy in print(isBusy ? "busy" : "idle") },  // drive a spinner from here
            .logging(), .retry(), .authorization(.bearer, store: tokens),
        ])
    )
}

func profileExamples() async throws {
    // Requests are values: what to send, and what comes back.
    let profile = try await API.client.send(NetworkRequest<Profile>(path: "/profiles/42"))

    // A per-request behavior at the call site joins the client-wide ones, each at its placement.
    let created = try await API.client.send(
        NetworkRequest<Profile>(.post, path: "/profiles", body: .json(Profile(id: 0, name: "Ada"))),
        behavior: .idempotencyKey()
    )
    print(profile.name, created.id)
}

func trustExample(caFile: URL) throws -> (CurlTransport, URLSessionTransport) {
let pem = try String(contentsOf: caFile, encoding: .utf8)
let trust = ServerTrust(
    certificateAuthorities: ServerTrust.certificates(pem: pem),
    pinnedKeys: [PublicKeyPin("sha256/YLh1dUR9y6Kja30RrAn7JKnbQG/uEtLMkBgFF2Fuihg=")!])
let transport = try CurlTransport(configuration: .init(serverTrust: trust))      // Linux
let apple = URLSessionTransport(configuration: .init(serverTrust: trust))       // Apple platforms
return (transport, apple)
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
func executorExample(api: URL) async throws -> Data {
    let transport = try CurlTransport()
    let client = NetworkClient(baseURL: api, transport: transport)
    let profile = try await withTaskExecutorPreference(transport.executor) {
        try await client.send(NetworkRequest<Data>(path: "/me"))
    }
    return profile
}

@Suite struct ReadmeSamplesTests {
    @Test func theExecutorExampleOfTransportsAndTrustIsCompiledHere() throws {
        let block = try DocumentSamples.swiftBlock(in: "Sources/Networking/Networking.docc/TransportsAndTrust.md") {
            $0.contains("let transport = try CurlTransport()\n")
        }
        #expect(DocumentSamples.lines(of: block).count == 9)
        #expect(try DocumentSamples.isCompiled(block, in: #filePath), "TransportsAndTrust.md's executor example is not the code compiled here")
    }

    @Test func theTrustExampleInReadmeIsCompiledHereAndBuildsItsPolicy() throws {
        let block = try DocumentSamples.swiftBlock(in: "Sources/Networking/Networking.docc/TransportsAndTrust.md") { $0.contains("let pem = ") }
        #expect(DocumentSamples.lines(of: block).count == 9)
        #expect(try DocumentSamples.isCompiled(block, in: #filePath), "TransportsAndTrust.md's trust example is not the code compiled here")

        let certificate = Data([0x30, 0x03, 0x02, 0x01, 0x01])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("readme-ca-\(UUID().uuidString).pem")
        try "-----BEGIN CERTIFICATE-----\n\(certificate.base64EncodedString())\n-----END CERTIFICATE-----\n"
            .write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let (curl, apple) = try trustExample(caFile: file)
        #expect(curl.configuration.serverTrust == apple.configuration.serverTrust)
        let trust = curl.configuration.serverTrust
        #expect(trust.certificateAuthorities == [certificate])
        #expect(trust.pinnedKeys.map(\.description) == ["sha256/YLh1dUR9y6Kja30RrAn7JKnbQG/uEtLMkBgFF2Fuihg="])
        #expect(trust.trustsSystemAuthorities)
    }

    @Test func theUsageExampleInReadmeIsCompiledHere() throws {
        let root = DocumentSamples.root
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let usage = try #require(
            readme.components(separatedBy: "```swift\n").dropFirst().first?.components(separatedBy: "\n```").first)
        let sample = DocumentSamples.lines(of: usage)
        let here = DocumentSamples.lines(of: try String(contentsOfFile: #filePath, encoding: .utf8))
        #expect(sample.count > 15)
        let found = here.indices.contains { start in
            start + sample.count <= here.count && Array(here[start..<start + sample.count]) == sample
        }
        #expect(found, "README.md's usage example is not the code compiled here")
    }

    @Test func theSharedClientIsBuiltWithTheFourClientWideBehaviors() throws {
        let behavior = try #require(API.client.configuration.behavior as? CombinedBehavior)
        #expect(behavior.behaviors.count == 4)
        #expect(behavior.behaviors.last is AuthorizationBehavior)
        #expect(API.client.configuration.baseURL?.host == "api.example.com")
    }
}
