// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Networking",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "Networking", targets: ["Networking"]),
        .library(name: "NetworkingTesting", targets: ["NetworkingTesting"]),
    ],
    dependencies: [],
    targets: [
        .target(name: "Networking"),
        .target(name: "NetworkingTesting", dependencies: ["Networking"]),
        .executableTarget(
            name: "Demo",
            dependencies: ["Networking"],
            resources: [.copy("Fixtures")]
        ),
        .executableTarget(
            name: "Benchmarks",
            dependencies: ["Networking"],
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
