import Foundation
import NetworkingHTTP
import NetworkingCore

/// Why a ``RecordingTransport`` could not answer or could not record: nothing recorded for a request in
/// ``RecordingTransport/Mode/replayOnly``, a fixture folder that cannot be written, a file it would overwrite
/// without being asked to, or a response too large to record.
///
/// It reaches the caller as the `underlyingError` of a `NetworkError` of kind `transport(other)`, with this
/// error's description as its message, for example:
/// ```
/// nothing recorded for GET /countries/xx in /app/Fixtures; closest: GET /countries/fr, GET /countries
/// ```
public struct RecordingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Hashable {
        /// Replay only, and nothing recorded answers the request: ``RecordingError/closest`` lists the nearest.
        case notRecorded
        /// The folder or a file in it cannot be created or written.
        case unwritable
        /// Recording would replace a file the folder already holds and the mode is not `recordAll`.
        case wouldOverwrite
        /// The response body is larger than ``RecordingOptions/maximumBodySize``.
        case tooLarge
        /// The folder's manifest cannot be read.
        case invalidManifest
    }

    /// What went wrong.
    public let kind: Kind
    /// The request, as `METHOD /path?query` (secret query values left out).
    public let request: String
    /// The file concerned, relative to the folder; empty when none.
    public let file: String
    /// The fixture folder.
    public let directory: String
    /// The problem, in a sentence.
    public let reason: String
    /// For ``Kind/notRecorded``: the recorded requests nearest to this one, nearest first (at most 3).
    public let closest: [String]

    /// Creates the error.
    ///
    /// - Parameters:
    ///   - kind: What went wrong.
    ///   - request: The request, as `METHOD /path?query`.
    ///   - file: The file concerned, relative to the folder.
    ///   - directory: The fixture folder.
    ///   - reason: The problem, in a sentence.
    ///   - closest: The nearest recorded requests, for ``Kind/notRecorded``.
    public init(
        _ kind: Kind, request: String, file: String = "", directory: String, reason: String, closest: [String] = []
    ) {
        self.kind = kind
        self.request = request
        self.file = file
        self.directory = directory
        self.reason = reason
        self.closest = closest
    }

    /// One line naming the request, the file and the problem.
    public var description: String {
        switch kind {
        case .notRecorded:
            "nothing recorded for \(request) in \(directory); "
                + (closest.isEmpty ? "the folder has no recording" : "closest: " + closest.joined(separator: ", "))
        case .unwritable:
            "cannot record \(request): \(file.isEmpty ? directory : file) cannot be written (\(reason))"
        case .wouldOverwrite:
            "cannot record \(request): \(file) already exists in \(directory) and only recordAll overwrites"
        case .tooLarge:
            "cannot record \(request): \(reason)"
        case .invalidManifest:
            "cannot record or replay \(request): the manifest in \(directory) is not valid: \(reason)"
        }
    }
}

extension RecordingError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` reads as well.
    public var errorDescription: String? { description }
}
