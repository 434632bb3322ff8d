import Foundation

/// The checks a file must pass to be sent as a request body, made before any I/O on every attempt.
package enum BodyFile {
    /// Why `url` cannot be sent as a body, naming its path; `nil` when it is a readable regular file.
    package static func problem(_ url: URL) -> String? {
        guard url.isFileURL else {
            return
                "the body file URL \"\(DisplayText.escapingControlCharacters(url.absoluteString))\" is not a file: URL"
        }
        let path = url.path
        let shown = "\"\(DisplayText.escapingControlCharacters(path))\""
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return "the body file \(shown) does not exist"
        }
        guard !isDirectory.boolValue else { return "the body file \(shown) is a directory" }
        guard FileManager.default.isReadableFile(atPath: path) else { return "the body file \(shown) is not readable" }
        return nil
    }

    /// The size of the file in bytes, or `nil` if it cannot be read.
    package static func size(_ url: URL) -> Int64? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
            let size = attributes[.size] as? NSNumber
        else { return nil }
        return size.int64Value
    }
}
