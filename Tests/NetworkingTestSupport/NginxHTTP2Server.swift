import Foundation
import NetworkingHTTP

/// nginx serving HTTP/2 over TLS on loopback, with a certificate the run's test authority signs
/// (`NETWORKING_TEST_CA_DIR`), started once per test process; on ``mutualPort``, the same site demanding a client
/// certificate the authority signed (`client.pem` and `client.key` in ``directory``). Its access log records, per request, the connection
/// serial number and the protocol, so a test can count connections. `make test` installs nginx when it is missing
/// (Debian's `nginx-light`); without it these tests fail, naming the package.
package final class NginxHTTP2Server: Sendable {
    package let port: Int
    package let mutualPort: Int
    package let directory: URL
    /// The shell keeping nginx, in a box: `Process` was not `Sendable` in older Apple SDKs
    /// and is not known to be in Xcode 16.0's, so a `Sendable` type does not store it bare.
    private let process: LockedBox<ChildProcess>

    package static let shared = Task<NginxHTTP2Server, any Error> { try NginxHTTP2Server() }

    /// Each request to `/gzip/` the server logged: its status, the body bytes sent, and the content coding (`-` for
    /// none). That location serves ``gzipPath`` with nginx's gzip filter and `etag on`, `Cache-Control: no-cache`.
    package func gzipLog() throws -> [(status: Int, bytes: Int, coding: String)] {
        let text = String(decoding: try FileContents.read(directory.appendingPathComponent("gzip.log")), as: UTF8.self)
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 3, let status = Int(parts[0]), let bytes = Int(parts[1]) else { return nil }
            return (status, bytes, String(parts[2]))
        }
    }

    /// A compressible JSON document (about 6 KB) served through nginx's gzip filter.
    package static let gzipPath = "/gzip/items.json"

    /// A second nginx proxying WebSocket upgrades (`proxy_http_version 1.1`, `Upgrade` and `Connection` passed on) to
    /// the `websockets` echo server (``WebSocketPeer``): plain HTTP on ``port``, TLS on ``mutualPort`` (no client
    /// certificate asked there).
    package static let webSocketProxy = Task<NginxHTTP2Server, any Error> {
        try NginxHTTP2Server(webSocketBackend: try await WebSocketPeer.plainPort())
    }

    /// Each request the server logged: `(connection serial, protocol, path)`.
    package func log() throws -> [(connection: String, protocol: String, path: String)] {
        // FileContents: String(contentsOf:) leaks its buffer when the log is still empty (make sanitize).
        let text = String(
            decoding: try FileContents.read(directory.appendingPathComponent("access.log")), as: UTF8.self)
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 3 else { return nil }
            return (String(parts[0]), String(parts[1]), String(parts[2]))
        }
    }

    private init(webSocketBackend: Int? = nil) throws {
        guard
            let binary = [
                "/usr/sbin/nginx", "/usr/local/sbin/nginx", "/opt/homebrew/bin/nginx", "/usr/local/bin/nginx",
            ]
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else { throw FaultServerError("nginx is not installed: `make test` installs it (apt-get install nginx-light)") }
        guard let authority = ProcessInfo.processInfo.environment["NETWORKING_TEST_CA_DIR"] else {
            throw FaultServerError("NETWORKING_TEST_CA_DIR is not set: run the tests through `make test`")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("networking-h2-\(UUID().uuidString)")
        let www = directory.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        try Data(#"{"h2":true}"#.utf8).write(to: www.appendingPathComponent("ok.json"))
        let gzip = www.appendingPathComponent("gzip")
        try FileManager.default.createDirectory(at: gzip, withIntermediateDirectories: true)
        let items = (0..<200).map { #"{"id":\#($0),"name":"item \#($0)"}"# }.joined(separator: ",")
        try Data("[\(items)]".utf8).write(to: www.appendingPathComponent(String(Self.gzipPath.dropFirst())))
        for path in [directory.path, www.path, gzip.path] { chmod(path, 0o755) }
        chmod(www.appendingPathComponent("ok.json").path, 0o644)
        chmod(www.appendingPathComponent(String(Self.gzipPath.dropFirst())).path, 0o644)
        let path = directory.path
        // Keys and certificates from the one script that makes every test key (it names the curve, which a Mac's
        // LibreSSL does not by itself).
        let certificates = TestServers.directory.appendingPathComponent("certificates.py").path
        try Self.run(
            "python3", certificates, "issue", path, "leaf", "/CN=127.0.0.1", "--authority", authority,
            "--extension", "subjectAltName=IP:127.0.0.1", "--extension", "basicConstraints=CA:FALSE",
            "--extension", "extendedKeyUsage=serverAuth")
        try Self.run(
            "python3", certificates, "issue", path, "client", "/CN=networking-test-client", "--authority", authority,
            "--extension", "basicConstraints=CA:FALSE", "--extension", "extendedKeyUsage=clientAuth")
        port = try Self.freePort()
        mutualPort = try Self.freePort()
        let (port, mutualPort) = (self.port, self.mutualPort)
        let servers =
            webSocketBackend.map { backend in
                """
                    server {
                        listen 127.0.0.1:\(port);
                        listen 127.0.0.1:\(mutualPort) ssl;
                        ssl_certificate \(path)/leaf.pem;
                        ssl_certificate_key \(path)/leaf.key;
                        location / {
                            proxy_pass http://127.0.0.1:\(backend);
                            proxy_http_version 1.1;
                            proxy_set_header Upgrade $http_upgrade;
                            proxy_set_header Connection "upgrade";
                            proxy_set_header Host $host;
                            proxy_read_timeout 60s;
                        }
                    }
                """
            } ?? """
                    server {
                        listen 127.0.0.1:\(port) ssl http2;
                        ssl_certificate \(path)/leaf.pem;
                        ssl_certificate_key \(path)/leaf.key;
                        location / { root \(www.path); default_type application/json; }
                        # nginx's gzip filter weakens the ETag of what it compresses (W/"x") and answers a revalidation
                        # with a 304 carrying the strong "x" (its not-modified filter runs before the gzip one).
                        location /gzip/ {
                            root \(www.path);
                            default_type application/json;
                            gzip on;
                            gzip_types *;
                            gzip_min_length 1;
                            etag on;
                            add_header Cache-Control no-cache;
                            access_log \(path)/gzip.log gzipped;
                        }
                    }
                    server {
                        listen 127.0.0.1:\(mutualPort) ssl;
                        ssl_certificate \(path)/leaf.pem;
                        ssl_certificate_key \(path)/leaf.key;
                        ssl_verify_client on;
                        ssl_client_certificate \(authority)/ca.pem;
                        location / { root \(www.path); default_type application/json; }
                    }
                """
        let config = """
            worker_processes 1;
            daemon off;
            pid \(path)/nginx.pid;
            error_log \(path)/error.log warn;
            events { worker_connections 1024; }
            http {
                log_format counted '$connection $server_protocol $uri';
                log_format gzipped '$status $body_bytes_sent $sent_http_content_encoding';
                access_log \(path)/access.log counted;
                keepalive_requests 100000;
                http2_max_concurrent_streams 128;
            \(servers)
            }
            """
        try config.write(toFile: "\(path)/nginx.conf", atomically: true, encoding: .utf8)
        // nginx has no parent watch of its own: a shell stops it when this test process is gone.
        let process = ChildProcess()
        self.process = LockedBox(process)
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c",
            "\"$0\" -p \"$1\" -c \"$1/nginx.conf\" & n=$!; while kill -0 \"$2\" 2>/dev/null; do sleep 0.5; done; kill $n; sleep 0.5; rm -rf \"$1\"",
            binary, path, "\(getpid())",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<100 {
            if Self.accepts(port), Self.accepts(mutualPort) { return }
            if !process.isRunning { throw FaultServerError("nginx exited: see \(path)/error.log") }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw FaultServerError("nginx did not listen within 5 s")
    }

    #if canImport(Glibc)
        private static let stream = Int32(SOCK_STREAM.rawValue)
    #else
        private static let stream = SOCK_STREAM
    #endif

    private static func run(_ arguments: String...) throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw FaultServerError("\(arguments.joined(separator: " ")) failed")
        }
    }

    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Self.stream, 0)
        guard fd >= 0 else { throw FaultServerError("socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                guard bind(fd, pointer, length) == 0 else { return -1 }
                return getsockname(fd, pointer, &length)
            }
        }
        guard bound == 0 else { throw FaultServerError("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Self.stream, 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
