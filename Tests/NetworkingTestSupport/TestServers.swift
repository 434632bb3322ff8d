import Foundation

/// Where the test servers' scripts are: `Tests/Servers`, found from this file, so every launcher agrees on it.
package enum TestServers {
    /// The `Tests/Servers` folder.
    package static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Servers")

    /// Whether this platform can start the servers: macOS and Linux can; iOS, tvOS and watchOS have no `Process`.
    package static var canStartServers: Bool {
        #if os(macOS) || os(Linux)
            true
        #else
            false
        #endif
    }
}
