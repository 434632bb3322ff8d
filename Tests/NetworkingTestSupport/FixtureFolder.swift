import Foundation
import Networking

/// A fixture folder in a fresh temporary directory, holding the given files, removed when the value goes away.
package final class FixtureFolder {
    package let url = FileManager.default.temporaryDirectory.appendingPathComponent("fixtures-\(UUID().uuidString)")

    package init(_ files: [String: String]) throws {
        for (name, text) in files {
            let file = url.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
