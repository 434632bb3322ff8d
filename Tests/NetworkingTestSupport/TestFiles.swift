import Foundation

/// Temporary files for body, upload and download tests.
package enum TestFiles {
    /// A temporary file holding `contents`, removed by the caller.
    package static func temporaryFile(_ contents: Data, name: String = "body") throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(name)-\(UUID().uuidString).bin")
        try contents.write(to: url)
        return url
    }
}
