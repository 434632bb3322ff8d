import Foundation
import Networking
import NetworkingFixtures

/// Where the demo's calls go: the bundled fixtures (the default: no server, no network) or a live server.
enum Backend: Sendable, Equatable {
    /// Fixtures from `directory`, served under ``fixtureBaseURL``.
    case fixtures(directory: URL)
    /// A live server at `baseURL`.
    case live(baseURL: URL)
    /// A live server at `baseURL`, every exchange recorded into `directory` (`--record DIR`).
    case recording(baseURL: URL, directory: URL)
    /// The exchanges recorded in `directory`, replayed offline under ``fixtureBaseURL`` (`--replay DIR`).
    case replaying(directory: URL)

    /// The base URL fixture calls are made to: an `.invalid` host, so it can never reach a real server.
    static let fixtureBaseURL = URL(string: "https://fixtures.invalid/v3.1")!

    /// The fixtures shipped with the demo as resources.
    static var bundledFixtures: Backend {
        .fixtures(directory: Bundle.module.url(forResource: "Fixtures", withExtension: nil)!)
    }

    /// The base URL the client is built with.
    var baseURL: URL {
        switch self {
        case .fixtures, .replaying: Self.fixtureBaseURL
        case .live(let baseURL), .recording(let baseURL, _): baseURL
        }
    }

    /// The transport: the fixture transport, a recording transport, or `nil` for the client's default network
    /// transport. A recording drops the base URL's path from its keys, so it replays under ``fixtureBaseURL``.
    func transport(clock: any NetworkClock) -> (any HTTPTransport)? {
        switch self {
        case .fixtures(let directory):
            FixtureTransport(directory: directory, basePath: Self.fixtureBaseURL.path, clock: clock)
        case .live:
            nil
        case .recording(let baseURL, let directory):
            RecordingTransport(
                wrapping: DefaultTransport.shared, directory: directory, mode: .recordAll,
                basePath: baseURL.path.isEmpty ? "/" : baseURL.path, clock: clock)
        case .replaying(let directory):
            RecordingTransport(replaying: directory, basePath: Self.fixtureBaseURL.path, clock: clock)
        }
    }

    /// A few words for the banner.
    var summary: String {
        switch self {
        case .fixtures: "bundled fixtures (no server, no network)"
        case .live(let baseURL): "live server \(baseURL.absoluteString)"
        case .recording(let baseURL, let directory):
            "live server \(baseURL.absoluteString), recorded into \(directory.path)"
        case .replaying(let directory): "recording in \(directory.path) (no server, no network)"
        }
    }
}
