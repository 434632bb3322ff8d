import Foundation
import NetworkingHTTP
import NetworkingCore

/// A download's file could not be created, written or moved into place: the `underlyingError` of a
/// `NetworkError` of kind `NetworkError/Kind/fileSystem`. The partial file, if any, is kept.
public struct DownloadFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What the download was doing.
    public enum Operation: String, Sendable, Hashable {
        /// Creating or opening the partial file.
        case open
        /// Writing bytes to it.
        case write
        /// Moving it to the destination.
        case move
    }

    /// What failed.
    public let operation: Operation
    /// The file it failed on.
    public let path: String
    /// The system's reason.
    public let reason: String

    /// Creates the error.
    ///
    /// - Parameters:
    ///   - operation: What failed.
    ///   - path: The file.
    ///   - reason: The system's reason.
    public init(operation: Operation, path: String, reason: String) {
        self.operation = operation
        self.path = path
        self.reason = reason
    }

    /// `cannot write /tmp/file.partial: No space left on device`.
    public var description: String { "cannot \(operation.rawValue) \(path): \(reason)" }
}

extension DownloadFileError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` reads as well.
    public var errorDescription: String? { description }
}
