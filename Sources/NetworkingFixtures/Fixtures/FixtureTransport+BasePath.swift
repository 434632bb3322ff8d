import Foundation
import NetworkingHTTP

extension FixtureTransport {
    /// A missing fixture whose path, without its first segments, names a fixture that exists: the client's base URL
    /// has a path (`https://api.example.com/v1`) the transport was not told to remove. The error then says so, and
    /// which `basePath` to pass.
    func explainingBasePath(_ error: FixtureError, method: String, segments: [String]) -> FixtureError {
        for dropped in 1..<max(1, segments.count) {
            let candidate = Self.fileName(method: method, segments: Array(segments.dropFirst(dropped)))
            guard FileManager.default.fileExists(atPath: directory.appendingPathComponent(candidate).path) else {
                continue
            }
            let prefix = "/" + segments.prefix(dropped).joined(separator: "/")
            let base = Self.segments(of: basePath)
            let suggested = "/" + (base + segments.prefix(dropped)).joined(separator: "/")
            return FixtureError(
                .missingFixture, request: error.request, file: error.file, directory: error.directory,
                reason: "\(candidate) exists: the path starts with \(prefix), the base URL's path, which the transport"
                    + " keeps; make it with FixtureTransport(directory: …, basePath: \"\(suggested)\")")
        }
        return error
    }
}
