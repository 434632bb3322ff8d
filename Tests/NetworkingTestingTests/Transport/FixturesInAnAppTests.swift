// swift-format-ignore-file
// The fixture samples of README.md and TestingYourAPILayer.md, verbatim, as an app and its tests write them: the
// compiler checks them here, in a target that ships a Fixtures folder (resources: [.copy("Fixtures")]), and
// EverySampleIsCompiledTests checks that both documents still show exactly this code.
import Foundation
import Networking
import Testing
import NetworkingTestSupport
import NetworkingTesting
#if DEBUG
import NetworkingFixtures
#endif

enum API {
    static let baseURL = URL(string: "https://api.example.com/v1")!
    static let tokens = InMemoryTokenStore()
    static let client = makeClient(transport: appTransport)

    /// The app's client on any transport: the network, fixtures in a debug build, a mock in a test. A test passes
    /// its own clock (a `TestClock` waits a `Retry-After` in no time) and token store.
    static func makeClient(
        transport: any HTTPTransport, clock: any NetworkClock = SystemClock(), tokens: any TokenStore = API.tokens
    ) -> NetworkClient {
        NetworkClient(
            configuration: .init(
                baseURL: baseURL, transport: transport,
                behavior: CombinedBehavior([
                    .activityCounter { isBusy in print(isBusy ? "busy" : "idle") },
                    .logging(), .retry(), .authorization(.bearer, store: tokens),
                ]),
                clock: clock))
    }

    /// Fixtures when a debug build runs with USE_FIXTURES=1, from the folder Fixtures the target ships (SwiftPM:
    /// resources: [.copy("Fixtures")], read from Bundle.module; an Xcode app: a folder reference, in Bundle.main);
    /// the network otherwise.
    static var appTransport: any HTTPTransport {
        #if DEBUG
        if ProcessInfo.processInfo.environment["USE_FIXTURES"] == "1" {
            // A bundle without that folder fails every call, saying so: fixtures asked for never fall back to the
            // network. basePath removes the base URL's path (/v1) before files are named.
            return FixtureTransport(folder: "Fixtures", in: .module, basePath: baseURL.path)
        }
        #endif
        return DefaultTransport.shared
    }
}

// Continues the sample above: a test of the app's target.
struct Profile: Codable, Equatable, Sendable { let id: Int; let name: String }

@Test func theAppsClientWaitsARetryAfterOnTheTestClock() async throws {
    let clock = TestClock()
    let mock = MockTransport()
        .stub(.get, "/profiles/42", .serviceUnavailable(retryAfter: 1), .success(Profile(id: 42, name: "Ada")))
    let client = API.makeClient(transport: mock, clock: clock, tokens: InMemoryTokenStore("t0ken"))

    let profile = try await client.send(NetworkRequest<Profile>(path: "/profiles/42"))

    #expect(profile == Profile(id: 42, name: "Ada"))
    #expect(clock.sleeps == [.seconds(1)])  // the app's retry waited on the test clock: no real second
    #expect(mock.lastRequest?.header("Authorization") == "Bearer t0ken")
}

/// What the samples promise, on this target's own Fixtures folder and on folders of the tests' own: the folder is
/// found in the target's bundle, a folder the bundle does not ship fails every call saying so (never the network),
/// and with the base URL's path as `basePath` a client whose base URL has a path is answered from the folder.
@Suite struct FixturesInAnAppTests {
    struct Country: Decodable, Equatable { let name: String }

    @Test func theSampleTakesTheNetworkUnlessFixturesAreAsked() {
        #expect(ProcessInfo.processInfo.environment["USE_FIXTURES"] == nil)
        #expect(API.client.configuration.baseURL == API.baseURL)
        #expect(!(API.client.configuration.transport is FixtureTransport))
    }

    @Test func theFolderTheTargetShipsIsFoundInItsBundle() async throws {
        // Bundle.main is the test runner here, as it is the app's in an Xcode app but not a SwiftPM target's
        // resources: the old sample's `Bundle.main.url(...)` was nil, and the app went to the network.
        #expect(Bundle.main.url(forResource: "Fixtures", withExtension: nil) == nil)
        let transport = FixtureTransport(folder: "Fixtures", in: .module, basePath: API.baseURL.path)
        try transport.validate()
        let client = API.makeClient(transport: transport, clock: TestClock())
        #expect(try await client.send(NetworkRequest<Profile>(path: "/profiles/42")) == Profile(id: 42, name: "Ada"))
    }

    @Test func aFolderTheBundleDoesNotShipFailsEveryCallSayingSo() async throws {
        let transport = FixtureTransport(folder: "Fixturez", in: .module, basePath: API.baseURL.path)
        let client = API.makeClient(transport: transport, clock: TestClock())
        for _ in 0..<2 {
            let error = try await expectNetworkError { try await client.send(NetworkRequest<Profile>(path: "/profiles/42")) }
            let fixture = try #require(error?.underlyingError as? FixtureError)
            #expect(fixture.kind == .missingFixture)
            #expect(fixture.description.contains("the fixture folder \(transport.directory.path) does not exist"))
            #expect(error?.attempts.count == 1)
        }
        let validation = try expectError(FixtureError.self) { try transport.validate() }
        #expect(validation?.description.hasPrefix("no fixture for validation: the fixture folder ") == true)
    }

    @Test func aMissingFolderIsNamedAsMissingNotAsAMissingFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-folder-\(UUID())")
        let client = NetworkClient(baseURL: API.baseURL, transport: FixtureTransport(directory: folder, basePath: "/v1"))
        let error = try await expectNetworkError { try await client.send(NetworkRequest<Country>(path: "/countries/fr")) }
        let fixture = try #require(error?.underlyingError as? FixtureError)
        #expect(
            fixture.description.hasPrefix(
                "no fixture for GET /countries/fr: looked for countries/fr.GET.json in \(folder.path); "
                    + "the fixture folder \(folder.path) does not exist"))
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
