import Foundation
import NetworkingTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An nginx serving a 1 KB JSON file on a free loopback port, with a generated config in a temporary folder.
/// nginx is the server because it is never the bottleneck: the benchmark measures the client.
final class NginxServer {
    let port: Int
    let directory: URL
    private let process: ChildProcess

    /// Starts nginx; throws a message saying how to install it when it is missing.
    init(payload: Data) throws {
        guard
            let binary = [
                "/usr/sbin/nginx", "/usr/local/sbin/nginx", "/opt/homebrew/bin/nginx", "/usr/local/bin/nginx",
            ]
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else {
            throw BenchmarkError(
                "nginx is not installed; `make bench` installs it with apt-get, or install it yourself")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "networking-bench-\(UUID().uuidString)")
        let www = directory.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        try payload.write(to: www.appendingPathComponent("payload.json"))
        // Readable by nginx's unprivileged worker when the benchmark runs as root.
        for path in [directory.path, www.path] { chmod(path, 0o755) }
        chmod(www.appendingPathComponent("payload.json").path, 0o644)
        port = try Self.freePort()
        let config = """
            worker_processes 1;
            daemon off;
            pid \(directory.path)/nginx.pid;
            error_log \(directory.path)/error.log warn;
            events { worker_connections 1024; }
            http {
                access_log off;
                keepalive_requests 1000000;
                keepalive_timeout 60s;
                server {
                    listen 127.0.0.1:\(port);
                    location / { root \(www.path); default_type application/json; }
                }
            }
            """
        let configURL = directory.appendingPathComponent("nginx.conf")
        try config.write(to: configURL, atomically: true, encoding: .utf8)
        process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-p", directory.path, "-c", configURL.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// The URL of the payload.
    var payloadURL: URL { URL(string: "http://127.0.0.1:\(port)/payload.json")! }

    /// Stops nginx and removes its folder.
    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// A port nobody listens on now: bind port 0 on loopback, read the port, close.
    private static func freePort() throws -> Int {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw BenchmarkError("socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                guard bind(fd, pointer, length) == 0 else { return -1 }
                return getsockname(fd, pointer, &length)
            }
        }
        guard bound == 0 else { throw BenchmarkError("could not find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A benchmark could not run; the message says why.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
