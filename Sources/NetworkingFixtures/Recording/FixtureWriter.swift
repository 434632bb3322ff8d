import Foundation
import NetworkingHTTP
import NetworkingCore

/// Writes files into a fixture folder whole or not at all: each file goes to a temporary file beside it, which is
/// then renamed over the destination (a rename within one folder is atomic), so a reader never sees half a file.
struct FixtureWriter: Sendable {
    let directory: URL

    /// Writes `data` to `file` (relative to the folder), creating folders as needed.
    ///
    /// - Throws: A sentence saying what could not be done.
    func write(_ data: Data, to file: String) throws(WriteProblem) {
        let destination = directory.appendingPathComponent(file)
        let folder = destination.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw WriteProblem(reason: "the folder \(folder.path) cannot be created: \(Self.describe(error))")
        }
        let temporary = folder.appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try data.write(to: temporary)
        } catch {
            throw WriteProblem(reason: "a file cannot be created in \(folder.path): \(Self.describe(error))")
        }
        guard rename(temporary.path, destination.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw WriteProblem(reason: "renaming into place failed: \(String(cString: strerror(code)))")
        }
    }

    func exists(_ file: String) -> Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent(file).path)
    }

    private static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError {
            return "\(underlying.localizedDescription) (\(underlying.domain) \(underlying.code))"
        }
        return nsError.localizedDescription
    }

    /// Why a write failed.
    struct WriteProblem: Error {
        let reason: String
    }
}
