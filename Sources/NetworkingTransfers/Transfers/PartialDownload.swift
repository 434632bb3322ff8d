import Foundation
import NetworkingHTTP
import NetworkingCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files of one download next to its destination: `<destination>.partial`, the bytes so far, and
/// `<destination>.partial-validator`, the `ETag` or `Last-Modified` they belong to.
struct PartialDownload: Sendable {
    let destination: URL

    var partialURL: URL { URL(fileURLWithPath: destination.path + ".partial") }
    var validatorURL: URL { URL(fileURLWithPath: destination.path + ".partial-validator") }

    /// The resume rule for what is on disk now.
    func rule() -> DownloadResume {
        let size =
            (try? FileManager.default.attributesOfItem(atPath: partialURL.path)[.size] as? NSNumber)?
            .int64Value ?? 0
        // Written as the response sent it; only OWS is trimmed (Foundation's .whitespaces would trim Unicode spaces
        // a validator may end with, and the next If-Range would not match).
        let validator = (try? String(contentsOf: validatorURL, encoding: .utf8)).map { String(FieldSyntax.trimmed($0)) }
        return DownloadResume(partialBytes: size, validator: validator)
    }

    /// Opens the partial file for writing: at its end to append, emptied to restart.
    func open(appending: Bool) throws -> FileHandle {
        do {
            let path = partialURL.path
            if !appending || !FileManager.default.fileExists(atPath: path) {
                guard FileManager.default.createFile(atPath: path, contents: nil) else {
                    throw DownloadFileError(operation: .open, path: path, reason: Self.lastError())
                }
            }
            let handle = try FileHandle(forWritingTo: partialURL)
            if appending { try handle.seekToEnd() }
            return handle
        } catch let error as DownloadFileError {
            throw error
        } catch {
            throw DownloadFileError(operation: .open, path: partialURL.path, reason: "\(error)")
        }
    }

    /// Writes `chunk` at the handle's position.
    func write(_ chunk: Data, to handle: FileHandle) throws {
        do {
            try handle.write(contentsOf: chunk)
        } catch {
            throw DownloadFileError(operation: .write, path: partialURL.path, reason: "\(error)")
        }
    }

    /// Stores the validator of the bytes being written, or removes it when there is none.
    func storeValidator(_ validator: String?) {
        guard let validator else {
            try? FileManager.default.removeItem(at: validatorURL)
            return
        }
        try? Data(validator.utf8).write(to: validatorURL, options: .atomic)
    }

    /// Removes the partial file and its validator.
    func discard() {
        try? FileManager.default.removeItem(at: partialURL)
        try? FileManager.default.removeItem(at: validatorURL)
    }

    /// Moves the finished file onto the destination in one step (`rename`: a reader sees the old file or the new
    /// one, never part of one), then removes the validator.
    func moveIntoPlace() throws {
        guard rename(partialURL.path, destination.path) == 0 else {
            throw DownloadFileError(operation: .move, path: destination.path, reason: Self.lastError())
        }
        try? FileManager.default.removeItem(at: validatorURL)
    }

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }
}
