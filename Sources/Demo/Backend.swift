import Foundation
import Networking
import NetworkingTesting

/// Where the demo's calls go: the bundled fixtures (the default: no server, no network) or a live server.
enum Backend: Sendable, Equatable {
    /// Fixtures from `directory`, served under ``fixtureBaseURL``.
    case fixtures(directory: URL)
    /// A live server at `baseURL`.
    case live(baseURL: URL)

    /// The base URL fixture calls are made to: an `.invalid` host, so it can never reach a real server.
    static let fixtureBaseURL = URL(string: "https://fixtures.invalid/v3.1")!

    /// The fixtures shipped with the demo as resources.
    static var bundledFixtures: Backend {
        .fixtures(directory: Bundle.module.url(forResource: "Fixtures", withExtension: nil)!)
    }

    /// The base URL the client is built with.
    var baseURL: URL {
        switch self {
        case .fixtures: Self.fixtureBaseURL
        case .live(let baseURL): baseURL
        }
    }

    /// The transport: the fixture transport, or `nil` for the client's default network transport.
    func transport(clock: any NetworkClock) -> (any HTTPTransport)? {
        switch self {
        case .fixtures(let directory):
            FixtureTransport(directory: directory, basePath: Self.fixtureBaseURL.path, clock: clock)
        case .live:
            nil
        }
    }

    /// A few words for the banner.
    var summary: String {
        switch self {
        case .fixtures: "bundled fixtures (no server, no network)"
        case .live(let baseURL): "live server \(baseURL.absoluteString)"
        }
    }
}
