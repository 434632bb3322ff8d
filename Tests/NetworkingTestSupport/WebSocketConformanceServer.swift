import Foundation
import Networking

/// `Tests/Servers/websocket_conformance.py`: Autobahn|Testsuite's client cases of sections 1-7 and 9, re-expressed,
/// started once per test process (it exits with it). A test that cannot start it fails.
package enum WebSocketConformanceServer {
    private static let port = Task<Int, any Error> {
        let text = try await PythonServer.launch(script: "websocket_conformance.py")
        guard let port = Int(text) else { throw FaultServerError("websocket_conformance.py wrote \(text)") }
        return port
    }

    /// `http://127.0.0.1:<port>` of the running server.
    package static func url() async throws -> URL {
        URL(string: "http://127.0.0.1:\(try await port.value)")!
    }

    /// One case the server runs.
    package struct Case: Decodable, Sendable {
        package let id: String
        package let section: String
        package let description: String
    }

    /// How the server graded a run of a case, as Autobahn's report does.
    package struct Result: Decodable, Sendable {
        package let id: String
        /// `OK`, `NON-STRICT`, `INFORMATIONAL` or `FAILED`: what the client sent back.
        package let behavior: String
        /// `OK`, `WRONG CODE`, `UNCLEAN` or `FAILED`: how the connection closed.
        package let behaviorClose: String
        /// The code of the client's close frame, if it sent one.
        package let remoteCloseCode: Int?
        package let wasClean: Bool
        package let closedByMe: Bool
        /// Whether the client sent a close frame.
        package let clientSentClose: Bool
        package let result: String
        package let resultClose: String
        package let duration_ms: Int
    }

    /// Every case, in Autobahn's order.
    package static func cases() async throws -> [Case] {
        try await NetworkClient(baseURL: try await url()).send(NetworkRequest<[Case]>(path: "/cases"))
    }

    /// The grade of the last run of `id`, once it ended.
    package static func result(_ id: String) async throws -> Result {
        try await NetworkClient(baseURL: try await url()).send(
            NetworkRequest<Result>(path: "/result", query: [URLQueryItem(name: "case", value: id)]))
    }
}

/// Starts a Python server of `Tests/Servers` that takes `--port-file`, `--lifetime` and `--parent-pid`, and returns
/// what it wrote to the port file once it listens (up to `seconds`).
package enum PythonServer {
    package static func launch(
        script: String, arguments: [String] = [], command: [String] = [], seconds: Int = 15
    ) async throws -> String {
        let name = script
        let portFile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "networking-\(name)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString).port")
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "python3", TestServers.directory.appendingPathComponent(script).path,
            ] + command + [
                "--port-file", portFile.path,
                "--lifetime", "1800", "--parent-pid", "\(ProcessInfo.processInfo.processIdentifier)",
            ] + arguments
        // Detached output: a server holding the test runner's pipes would keep `swift test` waiting for EOF.
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<(seconds * 20) {
            if let text = try? String(contentsOf: portFile, encoding: .utf8) {
                return text.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            if !process.isRunning {
                throw FaultServerError("\(name) exited with status \(process.terminationStatus)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw FaultServerError("\(name) did not report a port within \(seconds) s")
    }
}
