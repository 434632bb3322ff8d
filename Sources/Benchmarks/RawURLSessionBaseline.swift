import Foundation
import Networking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The baseline of part 2: plain `URLSession.data(for:)` on a session configured like the client's transport
/// (ephemeral, no cookies, no cache), with no client, behavior or decoding around it.
struct RawBaseline: Sendable {
    private let session: URLSession
    private let request: URLRequest

    init(url: URL) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
        request = URLRequest(url: url)
    }

    /// One GET; fails unless the server answers 200.
    func get() async throws {
        let (_, response) = try await session.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw BenchmarkError("baseline request failed: \(response)")
        }
    }
}

/// The client's default transport, made here so only files named for URLSession mention it.
enum URLTransportFactory {
    static func make() -> any HTTPTransport { URLSessionTransport() }
}
