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
//   feature targets           Auth, Resilience, HTTPCache, Cookies, Observability, Transfers: each on Core only
//   NetworkingTesting         mocks, test clock, recording, the fixture transport
//   Networking                the umbrella: re-exports the usual set, picks the platform's default transport
let package = Package(
    name: "Networking",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "Networking", targets: ["Networking"]),
        .library(name: "NetworkingTesting", targets: ["NetworkingTesting"]),
        .library(name: "NetworkingCore", targets: ["NetworkingCore"]),
        .library(name: "NetworkingCurl", targets: ["NetworkingCurl"]),
    ],
    dependencies: [],
    targets: [
        .target(name: "NetworkingHTTP"),
        .target(name: "NetworkingCore", dependencies: ["NetworkingHTTP"]),
        .target(name: "NetworkingTLS", dependencies: ["NetworkingHTTP"]),
        .target(name: "NetworkingURLSession", dependencies: ["NetworkingCore", "NetworkingTLS"]),
        .target(name: "CCurlShim"),
        .target(name: "NetworkingCurl", dependencies: ["CCurlShim", "NetworkingCore", "NetworkingTLS"]),
        .target(name: "NetworkingAuth", dependencies: ["NetworkingCore"]),
        .target(name: "NetworkingResilience", dependencies: ["NetworkingCore"]),
        .target(name: "NetworkingHTTPCache", dependencies: ["NetworkingCore"]),
        .target(name: "NetworkingCookies", dependencies: ["NetworkingCore"]),
        .target(name: "NetworkingObservability", dependencies: ["NetworkingCore"]),
        .target(name: "NetworkingTransfers", dependencies: ["NetworkingCore"]),
        .target(
            name: "Networking",
            dependencies: [
                "NetworkingHTTP", "NetworkingCore", "NetworkingTLS", "NetworkingURLSession", "NetworkingCurl",
                "NetworkingAuth",
                "NetworkingResilience", "NetworkingHTTPCache", "NetworkingCookies", "NetworkingObservability",
                "NetworkingTransfers",
            ]
        ),
        .target(name: "NetworkingTesting", dependencies: ["NetworkingHTTP", "NetworkingCore"]),
        .executableTarget(
            name: "Demo",
            dependencies: ["Networking", "NetworkingTesting"],
            resources: [.copy("Fixtures")]
        ),
        .executableTarget(
            name: "Benchmarks",
            dependencies: ["Networking", "NetworkingCurl"],
            exclude: ["README.md"]
        ),
        .testTarget(
            name: "NetworkingTests",
            dependencies: ["Networking", "NetworkingTesting", "Demo"]
        ),
    ]
)

for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
