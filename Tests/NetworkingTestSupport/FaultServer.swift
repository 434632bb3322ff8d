import Foundation
import Networking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The stdlib Python fault server in `Tests/Servers/fault_server.py`, started once per test process.
///
/// It listens on the same port on 127.0.0.1 and 127.0.0.2 (or 127.0.0.1 alone where 127.0.0.2 is not routed; see
/// `otherHost()`) and exits when this process does. A test that cannot
/// start or reach it fails: nothing here skips.
package enum FaultServer {
    private static let port = Task<Int, any Error> { try await launch() }

    /// `http://<host>:<port>` of the running server.
    package static func url(host: String = "127.0.0.1") async throws -> URL {
        URL(string: "http://\(host):\(try await port.value)")!
    }

    /// A client on a real transport (this run's, `TestTransport`) pointed at the server.
    package static func client(
        transport: any HTTPTransport = TestTransport.make(),
        behavior: any RequestBehavior = EmptyBehavior(),
        timeout: Duration = .seconds(30),
        configure: (inout NetworkClient.Configuration) -> Void = { _ in }
    ) async throws -> NetworkClient {
        try loopbackClient(
            try await url(), transport: transport, behavior: behavior, timeout: timeout, configure: configure)
    }

    /// What the server recorded for `key`.
    package struct Hits: Decodable, Sendable {
        package struct Record: Decodable, Sendable {
            package let method: String
            package let path: String
            /// Names lower-cased, repeated fields joined.
            package let headers: [String: String]
            /// `[name, value]` pairs as received, names in their case.
            package let raw_headers: [[String]]
            package let body: String
            /// Whether the body arrived whole (its `Content-Length`, or the chunked terminator) before the
            /// connection ended; `nil` for records of routes that read no body.
            package let complete: Bool?
        }
        package let count: Int
        package let requests: [Record]
    }

    /// The hits the server counted for `key`.
    package static func hits(_ key: String) async throws -> Hits {
        let client = NetworkClient(baseURL: try await url())
        return try await client.send(
            NetworkRequest<Hits>(path: "/__hits", query: [URLQueryItem(name: "key", value: key)]))
    }

    private struct Ports: Decodable, Sendable {
        let alternate: Int
        let other: String
    }

    private static func ports() async throws -> Ports {
        let client = NetworkClient(baseURL: try await url())
        return try await client.send(NetworkRequest<Ports>(path: "/__ports"))
    }

    /// The port of the server's second plain listener on 127.0.0.1: another origin with the same routes and hits.
    package static func alternatePort() async throws -> Int {
        try await ports().alternate
    }

    /// Another host name for the same server, so another origin on the same port: 127.0.0.2, or `localhost`
    /// where 127.0.0.2 is not routed (macOS without `ifconfig lo0 alias 127.0.0.2`).
    package static func otherHost() async throws -> String {
        try await ports().other
    }

    /// What one of the server's TLS listeners has seen: its port, connections accepted, handshakes by outcome.
    package struct TLSStats: Decodable, Sendable {
        package struct Handshakes: Decodable, Sendable {
            package let ok: Int
            package let failed: Int
        }
        /// A client identity as PEM.
        package struct Identity: Decodable, Sendable {
            package let certificate: String
            package let key: String
        }
        /// The identities a mutual-TLS listener offers: one the run's authority signed, one it did not.
        package struct Identities: Decodable, Sendable {
            package let signed: Identity
            package let stranger: Identity
        }
        package let port: Int
        package let connections: Int
        package let handshakes: Handshakes
        package let identities: Identities?
    }

    /// The self-signed listener's counts (`/__tls`), or with `trusted` those of the listener whose certificate the
    /// run's authority signed (`/__tls-trusted`).
    package static func tlsStats(trusted: Bool = false) async throws -> TLSStats {
        let client = NetworkClient(baseURL: try await url())
        return try await client.send(NetworkRequest<TLSStats>(path: trusted ? "/__tls-trusted" : "/__tls"))
    }

    /// The counts of the listener demanding a client certificate the run's authority signed, TLS 1.3 only
    /// (`/__tls-mutual13`) or TLS 1.2 only (`/__tls-mutual12`), with the identities it offers.
    package static func mutualTLSStats(tls13: Bool) async throws -> TLSStats {
        let client = NetworkClient(baseURL: try await url())
        return try await client.send(NetworkRequest<TLSStats>(path: tls13 ? "/__tls-mutual13" : "/__tls-mutual12"))
    }

    /// A key no other test uses.
    package static func newKey(_ label: String = "k") -> String {
        "\(label)-\(UUID().uuidString.prefix(8))"
    }

    private static func launch() async throws -> Int {
        let script = TestServers.directory.appendingPathComponent("fault_server.py")
        let portFile = FileManager.default.temporaryDirectory
            .appendingPathComponent(
                "networking-fault-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString).port")
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", script.path, "--port-file", portFile.path, "--lifetime", "1800",
            "--parent-pid", "\(ProcessInfo.processInfo.processIdentifier)",
        ]
        // NETWORKING_FAULT_HOSTS=127.0.0.1 runs the server as a Mac without the 127.0.0.2 alias does.
        if let hosts = ProcessInfo.processInfo.environment["NETWORKING_FAULT_HOSTS"] {
            process.arguments? += ["--hosts", hosts]
        }
        // Detached output: a server holding the test runner's pipes would keep `swift test` waiting for EOF.
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait for the server to write its port: up to 15 s, polling; a server that never starts fails the tests.
        for _ in 0..<300 {
            if let text = try? String(contentsOf: portFile, encoding: .utf8),
                let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                return port
            }
            if !process.isRunning {
                throw FaultServerError("fault_server.py exited with status \(process.terminationStatus)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw FaultServerError("fault_server.py did not report a port within 15 s")
    }
}

/// A client for a loopback test server at `baseURL`, on a real transport.
package func loopbackClient(
    _ baseURL: URL, transport: any HTTPTransport, behavior: any RequestBehavior, timeout: Duration,
    configure: (inout NetworkClient.Configuration) -> Void = { _ in }
) throws -> NetworkClient {
    var configuration = NetworkClient.Configuration(
        baseURL: baseURL, transport: transport, behavior: behavior, timeout: timeout)
    configure(&configuration)
    return try NetworkClient(validating: configuration)
}

package struct FaultServerError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
