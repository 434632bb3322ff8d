import Foundation
import Networking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A local httpbin (PyPI `httpbin` under gunicorn, on 127.0.0.1), for tests against a server nobody here wrote.
///
/// `make test` starts it through `Tests/Servers/httpbin.py`, exports its base URL as `HTTPBIN_URL`, and stops it
/// afterwards whatever the outcome. When `HTTPBIN_URL` is missing (a bare `swift test`), the first test that needs
/// it starts a private one through the same script, tied to this test process (it exits with it). If neither
/// works, every httpbin test fails with the reason and a hint to run `make test`: nothing here skips.
package enum HTTPBin {
    private static let baseURL = Task<URL, any Error> { try await locate() }

    /// `http://127.0.0.1:<port>` of the running httpbin.
    package static func url() async throws -> URL {
        try await baseURL.value
    }

    /// A client on a real transport (this run's, `TestTransport`) pointed at httpbin.
    package static func client(
        transport: any HTTPTransport = TestTransport.make(),
        behavior: any RequestBehavior = EmptyBehavior(),
        timeout: Duration = .seconds(30),
        configure: (inout NetworkClient.Configuration) -> Void = { _ in }
    ) async throws -> NetworkClient {
        try loopbackClient(
            try await url(), transport: transport, behavior: behavior, timeout: timeout, configure: configure)
    }

    private static func locate() async throws -> URL {
        if let text = ProcessInfo.processInfo.environment["HTTPBIN_URL"], !text.isEmpty {
            guard let url = URL(string: text), url.scheme == "http", url.host != nil else {
                throw HTTPBinUnavailable("HTTPBIN_URL is \"\(text)\", not an http://host:port URL")
            }
            return url
        }
        return try await startPrivateServer()
    }

    /// Runs `httpbin.py start` with a state folder of our own and this process as parent; returns the URL it prints.
    private static func startPrivateServer() async throws -> URL {
        let servers = TestServers.directory
        let pid = ProcessInfo.processInfo.processIdentifier
        let work = FileManager.default.temporaryDirectory.appendingPathComponent(
            "networking-httpbin-\(pid)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let output = work.appendingPathComponent("start.out")
        let errors = work.appendingPathComponent("start.err")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", servers.appendingPathComponent("httpbin.py").path, "start",
            "--state", work.appendingPathComponent("state").path, "--parent-pid", "\(pid)", "--lifetime", "1800",
        ]
        // Files, not pipes: pip may print more than a pipe holds, and nothing may block a cooperative thread.
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardInput = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        let printed = (try? String(contentsOf: output, encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard status == 0, let printed, let url = URL(string: printed), url.host != nil else {
            let log = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw HTTPBinUnavailable("httpbin.py start exited with status \(status): \(log.suffix(2000))")
        }
        return url
    }
}

/// Why httpbin could not be reached; its description tells how to get it.
package struct HTTPBinUnavailable: Error, CustomStringConvertible {
    package let reason: String
    package init(_ reason: String) { self.reason = reason }

    package var description: String {
        "httpbin is not available (\(reason)). Run `make test`, which starts httpbin and sets HTTPBIN_URL, or "
            + "start it with `python3 Tests/Servers/httpbin.py start` and export HTTPBIN_URL=<the URL it prints>."
    }
}
