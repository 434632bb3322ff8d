import Foundation
import Networking
import NetworkingCurl

/// The transport the real-server suite runs on: `NETWORKING_TEST_TRANSPORT=curl` for the libcurl transport,
/// anything else (or nothing) for the URLSession transport. `make test` runs the real-server suite once on each,
/// so every fault scenario is checked against both with the same test code.
package enum TestTransport: String, CaseIterable, Sendable {
    case urlSession = "urlsession"
    case curl

    /// The transport of this run.
    package static let current: TestTransport =
        ProcessInfo.processInfo.environment["NETWORKING_TEST_TRANSPORT"].flatMap(TestTransport.init(rawValue:))
        ?? .urlSession

    /// A new transport of this run's kind. `maximumConnectionsPerHost` and `serverTrust` apply to either.
    package static func make(maximumConnectionsPerHost: Int? = nil, serverTrust: ServerTrust = .system)
        -> any HTTPTransport
    {
        switch current {
        case .urlSession:
            var configuration = URLSessionTransport.Configuration(serverTrust: serverTrust)
            if let maximumConnectionsPerHost { configuration.maximumConnectionsPerHost = maximumConnectionsPerHost }
            return URLSessionTransport(configuration: configuration)
        case .curl:
            var configuration = CurlTransport.Configuration(serverTrust: serverTrust)
            if let maximumConnectionsPerHost { configuration.maximumConnectionsPerHost = maximumConnectionsPerHost }
            do {
                return try CurlTransport(configuration: configuration)
            } catch {
                // A run asked for libcurl: every test fails with the reason, none passes on another transport.
                return UnavailableTransport(error: error)
            }
        }
    }

    /// A transport that fails every call with why the asked-for transport could not be made.
    package struct UnavailableTransport: HTTPTransport {
        package let error: CurlUnavailableError
        package func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) { throw error }
    }
}
