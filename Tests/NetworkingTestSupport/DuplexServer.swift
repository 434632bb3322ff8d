import Foundation
import Networking

/// `Tests/Servers/duplex_server.py`, started once per test process: a server that reads and writes one exchange at
/// the same time (echo, speak) and sends and checks trailer fields, on a plain HTTP/1.1 port and on a TLS port
/// offering `h2` and `http/1.1` (its certificate signed by the run's test authority). Its HTTP/2 side needs PyPI's
/// `h2`, which the script installs in `.build/venv-duplex` on first use. A test that cannot start it fails.
package enum DuplexServer {
    private static let ports = Task<Ports, any Error> { try await launch() }

    private struct Ports: Decodable, Sendable {
        let plain: Int
        let tls: Int
    }

    /// `http://127.0.0.1:<plain port>`.
    package static func plainURL() async throws -> URL {
        URL(string: "http://127.0.0.1:\(try await ports.value.plain)")!
    }

    /// `https://127.0.0.1:<TLS port>`: HTTP/2 for a client that offers it, HTTP/1.1 otherwise.
    package static func tlsURL() async throws -> URL {
        URL(string: "https://127.0.0.1:\(try await ports.value.tls)")!
    }

    /// What the server recorded of one request.
    package struct Record: Decodable, Sendable {
        package let path: String
        /// `HTTP/1.1` or `HTTP/2`.
        package let `protocol`: String
        /// The request body's bytes as received (latin-1 text).
        package let received: String
        /// Whether the request body ended as its framing says (the last chunk, the length, END_STREAM).
        package let complete: Bool
        /// The request's trailer fields, `[name, value]` as received.
        package let trailers: [[String]]
        /// `/speak`: whether every byte came back in order; `nil` before it knows.
        package let echoed_ok: Bool?
        /// `/speak`: the bytes it sent.
        package let sent: Int
    }

    /// The records of `key`.
    package struct Hits: Decodable, Sendable {
        package let count: Int
        package let requests: [Record]
    }

    /// The hits the server counted for `key` (asked over the plain port).
    package static func hits(_ key: String) async throws -> Hits {
        let client = NetworkClient(baseURL: try await plainURL())
        return try await client.send(
            NetworkRequest<Hits>(path: "/__hits", query: [URLQueryItem(name: "key", value: key)]))
    }

    /// Polls until the last record of `key` says its request body ended, for at most `limit`.
    package static func completedRecord(_ key: String, limit: Duration = .seconds(10)) async throws -> Record {
        let deadline = ContinuousClock.now + limit
        while true {
            if let record = try await hits(key).requests.last, record.complete { return record }
            guard ContinuousClock.now < deadline else {
                throw FaultServerError("the request of \(key) did not end at the server within \(limit)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    private static func launch() async throws -> Ports {
        guard ProcessInfo.processInfo.environment["NETWORKING_TEST_CA_DIR"] != nil else {
            throw FaultServerError("NETWORKING_TEST_CA_DIR is not set: run the tests through `make test`")
        }
        let script = TestServers.directory.appendingPathComponent("duplex_server.py")
        let portFile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "networking-duplex-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString).json")
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", script.path, "--port-file", portFile.path, "--lifetime", "1800",
            "--parent-pid", "\(ProcessInfo.processInfo.processIdentifier)",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // A first run installs h2 from PyPI into the venv: up to 3 minutes; later starts take a moment.
        for _ in 0..<3600 {
            if let data = try? Data(contentsOf: portFile), let ports = try? JSONDecoder().decode(Ports.self, from: data)
            {
                return ports
            }
            if !process.isRunning {
                throw FaultServerError("duplex_server.py exited with status \(process.terminationStatus)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw FaultServerError("duplex_server.py did not report its ports within 3 minutes")
    }
}
