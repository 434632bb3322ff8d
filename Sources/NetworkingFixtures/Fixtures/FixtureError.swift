import Foundation
import NetworkingHTTP
import NetworkingCore

/// Why a ``FixtureTransport`` could not answer: a missing or malformed fixture, or a malformed manifest.
///
/// It reaches the caller as the `underlyingError` of a `NetworkError` of kind `transport(other)`, whose message
/// is this error's description, for example:
/// ```
/// no fixture for GET /countries/xx: looked for countries/xx.GET.json in /app/Fixtures
/// ```
public struct FixtureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Hashable {
        /// No file answers the request: ``FixtureError/file`` is the file that was looked for.
        case missingFixture
        /// A fixture file exists but cannot be read or is not valid JSON.
        case invalidFixture
        /// The manifest cannot be read, is not valid JSON, or does not follow the manifest format.
        case invalidManifest
        /// The request's path cannot name a file safely (`..` segments, or a path outside the base path).
        case unsafePath
    }

    /// What went wrong.
    public let kind: Kind
    /// The request, as `METHOD /path`.
    public let request: String
    /// The file concerned, relative to the fixture folder, such as `countries/fr.GET.json` or `fixtures.json`.
    public let file: String
    /// The fixture folder.
    public let directory: String
    /// The problem, in a sentence.
    public let reason: String

    /// Creates the error.
    ///
    /// - Parameters:
    ///   - kind: What went wrong.
    ///   - request: The request, as `METHOD /path`.
    ///   - file: The file concerned, relative to the fixture folder.
    ///   - directory: The fixture folder.
    ///   - reason: The problem, in a sentence.
    public init(_ kind: Kind, request: String, file: String, directory: String, reason: String) {
        self.kind = kind
        self.request = request
        self.file = file
        self.directory = directory
        self.reason = reason
    }

    /// The reason of a plain ``Kind/missingFixture``, which its description leaves out.
    package static let fileDoesNotExist = "the file does not exist"

    /// One line naming the request, the file and the problem.
    public var description: String {
        switch kind {
        case .missingFixture where file.isEmpty:
            "no fixture for \(request): \(reason)"
        case .missingFixture where reason != Self.fileDoesNotExist:
            "no fixture for \(request): looked for \(file) in \(directory); \(reason)"
        case .missingFixture:
            "no fixture for \(request): looked for \(file) in \(directory)"
        case .invalidFixture:
            "the fixture \(file) for \(request) is not valid: \(reason)"
        case .invalidManifest:
            "the fixture manifest \(file) in \(directory) is not valid: \(reason)"
        case .unsafePath:
            "no fixture for \(request): \(reason)"
        }
    }
}

extension FixtureError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` reads as well.
    public var errorDescription: String? { description }
}
