// swift-format-ignore-file
// The fixture sample of README.md and TestingYourAPILayer.md, verbatim, as an app writes it: the compiler checks
// it here, and EverySampleIsCompiledTests checks that both documents still show exactly this code.
import Foundation
import Networking
import Testing
import NetworkingTestSupport
#if DEBUG
import NetworkingFixtures
#endif

enum API {
    static let baseURL = URL(string: "https://api.example.com/v1")!
    static let client = makeClient(transport: appTransport)

    /// The app's client on any transport: the network, fixtures in a debug build, a mock in a test.
    static func makeClient(transport: any HTTPTransport) -> NetworkClient {
        NetworkClient(baseURL: baseURL, transport: transport, behavior: CombinedBehavior([.logging(), .retry()]))
    }

    /// Fixtures when a debug build runs with USE_FIXTURES=1, from a folder reference named Fixtures in the app
    /// (a SwiftPM target: resources: [.copy("Fixtures")] and Bundle.module); the network otherwise.
    static var appTransport: any HTTPTransport {
        #if DEBUG
        if ProcessInfo.processInfo.environment["USE_FIXTURES"] == "1",
            let folder = Bundle.main.url(forResource: "Fixtures", withExtension: nil)
        {
            // basePath removes the base URL's path (/v1) before files are named.
            return FixtureTransport(directory: folder, basePath: baseURL.path)
        }
        #endif
        return DefaultTransport.shared
    }
}

/// What the sample promises, on a folder of the test's own: with the base URL's path as `basePath`, a client
/// whose base URL has a path is answered from the folder; without it, the miss says which `basePath` to pass.
@Suite struct FixturesInAnAppTests {
    struct Country: Decodable, Equatable { let name: String }

    @Test func theSampleTakesTheNetworkUnlessFixturesAreAsked() {
        #expect(ProcessInfo.processInfo.environment["USE_FIXTURES"] == nil)
        #expect(API.client.configuration.baseURL == API.baseURL)
    }

    @Test func aTestBuildsTheAppsClientOnAFolderOfItsOwn() async throws {
        let folder = try FixtureFolder(["countries/fr.GET.json": #"{"name": "France"}"#])
        let client = API.makeClient(transport: FixtureTransport(directory: folder.url, basePath: API.baseURL.path))
        #expect(client.configuration.behavior is CombinedBehavior)
        #expect(try await client.send(NetworkRequest<Country>(path: "/countries/fr")) == Country(name: "France"))
    }

    @Test func aMissWhosePathStillHoldsTheBasePathSaysWhichBasePathToPass() async throws {
        let folder = try FixtureFolder(["countries/fr.GET.json": #"{"name": "France"}"#])
        let client = NetworkClient(baseURL: API.baseURL, transport: FixtureTransport(directory: folder.url))
        let error = try await expectNetworkError { try await client.send(NetworkRequest<Country>(path: "/countries/fr")) }
        let fixture = try #require(error?.underlyingError as? FixtureError)
        #expect(fixture.kind == .missingFixture)
        #expect(fixture.file == "v1/countries/fr.GET.json")
        #expect(fixture.description.contains("countries/fr.GET.json exists: the path starts with /v1"))
        #expect(fixture.description.contains(#"basePath: "/v1""#))
        #expect(error?.description.contains(#"basePath: "/v1""#) == true)
    }

    @Test func aPlainMissSaysOnlyWhichFileItLookedFor() async throws {
        let folder = try FixtureFolder(["countries/fr.GET.json": #"{"name": "France"}"#])
        let client = NetworkClient(
            baseURL: API.baseURL, transport: FixtureTransport(directory: folder.url, basePath: API.baseURL.path))
        let error = try await expectNetworkError { try await client.send(NetworkRequest<Country>(path: "/countries/xx")) }
        let fixture = try #require(error?.underlyingError as? FixtureError)
        #expect(fixture.description == "no fixture for GET /countries/xx: looked for countries/xx.GET.json in \(folder.url.path)")
    }
}
