// swift-tools-version:6.0
import PackageDescription

// The target graph is the architecture, core at the bottom, no circles:
//
//   NetworkingHTTP            the value model: request, fields, response, one body type (no networking)
//   NetworkingCore            client, chain, behavior protocol, transport protocol, clock and time limits, errors,
//                             failure classifier; knows no feature and no transport
//   NetworkingTLS             trust settings shared by the transports (own authorities, key pins)
//   NetworkingURLSession      the URLSession transport
//   CCurlShim, NetworkingCurl the libcurl transport: libcurl found at run time (dlopen), declared by our own C target
//                             (both transports also on NetworkingWebSocket, whose WebSocketTransport they adopt)
//   NetworkingTransports      the platform's default transport, picked between the two (the only other target that
//                             names them)
//   feature targets           Auth, Modifiers, Resilience, HTTPCache, Cookies, Observability, Transfers,
//                             WebSocket: each on Core only
//   NetworkingFixtures        the fixture transport, recording and replay, drift reports: what an app may ship in a
//                             debug build, apart from the mocks
//   NetworkingTesting         mocks, the test clock, the hook trace; re-exports NetworkingFixtures
//   Networking                the umbrella: re-exports the usual set (no code of its own)
let package = Package(
    name: "Networking",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "Networking", targets: ["Networking"]),
        .library(name: "NetworkingTesting", targets: ["NetworkingTesting"]),
        .library(name: "NetworkingFixtures", targets: ["NetworkingFixtures"]),
        .library(name: "NetworkingCore", targets: ["NetworkingCore"]),
        .library(name: "NetworkingCurl", targets: ["NetworkingCurl"]),
    ],
    dependencies: [],
    targets: [
        .target(name: "NetworkingHTTP"),
        .target(name: "NetworkingCore", dependencies: ["NetworkingHTTP"]),
        .target(name: "NetworkingTLS", dependencies: ["NetworkingHTTP"]),
        .target(
            name: "NetworkingURLSession", dependencies: ["NetworkingCore", "NetworkingTLS", "NetworkingWebSocket"]),
        .target(name: "CCurlShim"),
        .target(
            name: "NetworkingCurl",
            dependencies: ["CCurlShim", "NetworkingCore", "NetworkingTLS", "NetworkingWebSocket"]),
        // libcurl is the default on Linux and can be chosen on macOS, which ships it; iOS, tvOS and watchOS have none,
        // so an app there never links the libcurl transport (its tests still build it, through a direct dependency).
        .target(
            name: "NetworkingTransports",
            dependencies: [
                "NetworkingCore", "NetworkingURLSession",
                .target(name: "NetworkingCurl", condition: .when(platforms: [.linux, .macOS])),
            ]),
        .target(name: "NetworkingAuth", dependencies: ["NetworkingCore"]),
        .target(name: "NetworkingResilience", dependencies: ["NetworkingCore"]),
        .target(name: "NetworkingHTTPCache", dependencies: ["NetworkingCore"]),
        .target(name: "NetworkingCookies", dependencies: ["NetworkingCore"]),
        .target(name: "NetworkingObservability", dependencies: ["NetworkingCore"]),
        .target(name: "NetworkingTransfers", dependencies: ["NetworkingCore"]),
        .target(name: "NetworkingModifiers", dependencies: ["NetworkingCore"]),
        .target(name: "NetworkingWebSocket", dependencies: ["NetworkingCore"]),
        .target(
            name: "Networking",
            dependencies: [
                "NetworkingHTTP", "NetworkingCore", "NetworkingTLS", "NetworkingTransports", "NetworkingAuth",
                "NetworkingResilience", "NetworkingHTTPCache", "NetworkingCookies", "NetworkingObservability",
                "NetworkingTransfers", "NetworkingModifiers", "NetworkingWebSocket",
            ]
        ),
        .target(name: "NetworkingFixtures", dependencies: ["NetworkingHTTP", "NetworkingCore"]),
        .target(
            name: "NetworkingTesting",
            dependencies: ["NetworkingHTTP", "NetworkingCore", "NetworkingFixtures", "NetworkingWebSocket"]),
        .executableTarget(
            name: "Demo",
            dependencies: ["Networking", "NetworkingFixtures"],
            resources: [.copy("Fixtures")]
        ),
        // libFuzzer harnesses of every parser of network bytes (make fuzz); built plainly, a replayer of corpora.
        .executableTarget(name: "Fuzz", dependencies: ["Networking", "NetworkingFixtures", "NetworkingCurl"]),
        // make cache-tests: the HTTP cache as the public cache suite (http-tests/cache-tests) sees it, driven by
        // Tests/Tools/cache_suite.py.
        .executableTarget(name: "CacheSuiteProxy", dependencies: ["Networking"], path: "Tests/Tools/CacheSuiteProxy"),
        .executableTarget(
            name: "Benchmarks",
            dependencies: ["Networking", "NetworkingCurl", "NetworkingTestSupport"],
            exclude: ["README.md"]
        ),
        // Tests: one target per source target (unit tests, no network), the real-server suites apart, the
        // documentation samples and the demo apart; helpers shared through a support target of `package` symbols.
        .target(
            name: "NetworkingTestSupport", dependencies: ["Networking", "NetworkingTesting", "NetworkingCurl"],
            path: "Tests/NetworkingTestSupport"),
        .testTarget(
            name: "NetworkingCoreTests",
            dependencies: ["Networking", "NetworkingTesting", "NetworkingTestSupport", "NetworkingCurl"]),
        .testTarget(
            name: "NetworkingAuthTests", dependencies: ["Networking", "NetworkingTesting", "NetworkingTestSupport"]),
        .testTarget(
            name: "NetworkingModifiersTests",
            dependencies: ["Networking", "NetworkingTesting", "NetworkingTestSupport"]),
        .testTarget(
            name: "NetworkingResilienceTests",
            dependencies: ["Networking", "NetworkingTesting", "NetworkingTestSupport"]),
        .testTarget(
            name: "NetworkingHTTPCacheTests",
            dependencies: ["Networking", "NetworkingTesting", "NetworkingTestSupport"]),
        .testTarget(
            name: "NetworkingCookiesTests", dependencies: ["Networking", "NetworkingTesting", "NetworkingTestSupport"]),
        .testTarget(
            name: "NetworkingObservabilityTests",
            dependencies: ["Networking", "NetworkingTesting", "NetworkingTestSupport"]),
        .testTarget(
            name: "NetworkingTransfersTests",
            dependencies: ["Networking", "NetworkingTesting", "NetworkingTestSupport"]),
        .testTarget(
            name: "NetworkingWebSocketTests",
            dependencies: ["Networking", "NetworkingTesting", "NetworkingTestSupport"]),
        .testTarget(
            name: "NetworkingCurlTests",
            dependencies: ["Networking", "NetworkingTesting", "NetworkingTestSupport", "NetworkingCurl"]),
        .testTarget(
            name: "NetworkingURLSessionTests",
            dependencies: ["Networking", "NetworkingTesting", "NetworkingTestSupport"]),
        // Fixtures: a folder the target ships, read as the docs' app reads its own (Bundle.module).
        .testTarget(
            name: "NetworkingTestingTests", dependencies: ["Networking", "NetworkingTesting", "NetworkingTestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "NetworkingRealServerTests",
            dependencies: ["Networking", "NetworkingTesting", "NetworkingTestSupport", "NetworkingCurl"]),
        .testTarget(name: "NetworkingFuzzCorpusTests", dependencies: ["Fuzz"]),
        // Recorded: a folder recorded from a backend, shipped with the target as Plugins.md's test reads it.
        .testTarget(
            name: "NetworkingDocumentationTests",
            dependencies: ["Networking", "NetworkingTesting", "NetworkingTestSupport", "NetworkingCurl", "Demo"],
            resources: [.copy("Recorded")]),
    ]
)

for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
