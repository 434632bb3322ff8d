import Foundation
import Networking
import NetworkingCurl
import NetworkingTestSupport
import Testing

/// What the full-duplex tests share: the `/speak` conversation, run against a transport, and a bound on the time a
/// test may take (a deadlock, the fault these tests guard against, must fail the test, not hang the suite).
enum Duplex {
    /// The URL of `path` with `query` on the duplex server at `base`.
    static func url(_ base: URL, _ path: String, _ query: [String: String]) -> URL {
        var components = URLComponents(url: base.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        components.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        return components.url!
    }

    /// Answers `/speak` (or `/echo`): every chunk of the response is written back in the request body as it
    /// arrives; the request body ends once the response has ended. Returns the response's bytes and its trailer
    /// fields.
    static func converse(
        _ transport: any HTTPTransport, _ url: URL, declared: Bool = true, first: Data? = nil
    ) async throws -> (HTTPResponse, Data, HTTPFields?) {
        let (answers, writer) = AsyncThrowingStream.makeStream(of: Data.self)
        var body = HTTPBody(once: answers)
        body.waitsOnResponse = declared
        if let first { writer.yield(first) }
        let (head, response) = try await transport.send(HTTPRequest(method: .post, url: url, body: body))
        var received = Data()
        do {
            for try await chunk in response {
                received.append(chunk)
                writer.yield(chunk)
            }
        } catch {
            writer.finish(throwing: error)
            throw error
        }
        writer.finish()
        return (head, received, response.trailerFields)
    }

    /// The `/speak` bytes: `count` one-byte chunks, `a` to `z` over and over.
    static func spoken(_ count: Int) -> Data {
        Data((0..<count).map { UInt8(0x61 + $0 % 26) })
    }

    /// Runs `operation`, failing it (and cancelling it) if it takes longer than `limit`: a hang is a failure here.
    static func within<T: Sendable>(
        _ limit: Duration = .seconds(30), _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw FaultServerError("the exchange did not end within \(limit): a deadlock")
            }
            return value
        }
    }

    /// A libcurl transport trusting the run's authority (the duplex server's TLS port).
    static func curl(httpVersion: CurlTransport.HTTPVersionPolicy = .automatic) throws -> CurlTransport {
        let trust = ServerTrust(
            certificateAuthorities: [try RealServerTests.TLSTrustTests.testAuthority()], trustsSystemAuthorities: false)
        return try CurlTransport(configuration: .init(serverTrust: trust, httpVersion: httpVersion))
    }
}
