import Foundation
import Networking

/// The `websockets` package from PyPI as a WebSocket peer nobody here wrote (`Tests/Servers/websockets_peer.py`): an
/// echo server on 127.0.0.1, plain and TLS (a certificate the run's test authority signs), started once per test
/// process (it exits with it). Its virtual environment is built on first use (`.build/venv-websockets`, a minute
/// with PyPI); a peer that cannot start fails its tests.
package enum WebSocketPeer {
    private struct Ports: Decodable, Sendable {
        let plain: Int
        let tls: Int
    }

    private static let ports = Task<Ports, any Error> {
        let text = try await PythonServer.launch(script: "websockets_peer.py", command: ["serve"], seconds: 300)
        return try JSONDecoder().decode(Ports.self, from: Data(text.utf8))
    }

    /// `http://127.0.0.1:<port>` of the plain listener.
    package static func url() async throws -> URL {
        URL(string: "http://127.0.0.1:\(try await ports.value.plain)")!
    }

    /// The port of the plain listener.
    package static func plainPort() async throws -> Int { try await ports.value.plain }

    /// `https://127.0.0.1:<port>` of the TLS listener (the run's authority signed its certificate).
    package static func tlsURL() async throws -> URL {
        let port = try await ports.value.tls
        guard port > 0 else { throw FaultServerError("the websockets peer has no TLS listener: run through make test") }
        return URL(string: "https://127.0.0.1:\(port)")!
    }

    /// How the connection of `key` (`/echo?key=K`) was closed by the client: the code of its close frame.
    package struct Closing: Decodable, Sendable {
        package let code: Int?
        package let reason: String?
    }

    /// The close the server received on the connection opened with `?key=K`, once it ended; `nil` before.
    package static func closing(_ key: String) async throws -> Closing? {
        try await NetworkClient(baseURL: try await url()).send(
            NetworkRequest<Closing?>(path: "/__closes", query: [URLQueryItem(name: "key", value: key)]))
    }
}
