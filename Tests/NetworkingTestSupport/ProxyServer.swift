import Foundation
import Networking

/// The stdlib Python proxy in `Tests/Servers/proxy_server.py`: forwards plain-HTTP requests, tunnels `CONNECT`,
/// counts both. One without credentials and one demanding `user:secret`, each started once per test process.
package enum ProxyServer {
    private static let open = Task<Int, any Error> { try await launch(credentials: nil) }
    private static let guarded = Task<Int, any Error> { try await launch(credentials: "user:secret") }

    /// `http://127.0.0.1:<port>` of the proxy; with `credentials`, the one that demands `user:secret`.
    package static func url(credentials: Bool = false) async throws -> URL {
        URL(string: "http://127.0.0.1:\(try await (credentials ? guarded : open).value)")!
    }

    /// What a proxy counted.
    package struct Stats: Decodable, Sendable {
        package let connects: Int
        package let forwards: Int
        package let targets: [String]
    }

    /// The counts of the proxy (asked directly, not through it).
    package static func stats(credentials: Bool = false) async throws -> Stats {
        let client = NetworkClient(baseURL: try await url(credentials: credentials))
        return try await client.send(NetworkRequest<Stats>(path: "/__stats"))
    }

    private static func launch(credentials: String?) async throws -> Int {
        let script = TestServers.directory.appendingPathComponent("proxy_server.py")
        let portFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("networking-proxy-\(UUID().uuidString).port")
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["python3", script.path, "--port-file", portFile.path, "--parent-pid", "\(getpid())"]
            + (credentials.map { ["--credentials", $0] } ?? [])
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<300 {
            if let text = try? String(contentsOf: portFile, encoding: .utf8), let port = Int(text) { return port }
            if !process.isRunning { throw FaultServerError("proxy_server.py exited with \(process.terminationStatus)") }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw FaultServerError("proxy_server.py did not report a port within 15 s")
    }
}
