import Foundation
import NetworkingHTTP
import NetworkingCore

/// One-line test helpers over a recorded folder: decode a recorded answer into a request's `Response` type.
///
/// ```swift
/// let france = try await RecordedFixtures.decode(NetworkRequest<[Country]>(path: "/alpha/fr"), from: fixturesURL)
/// ```
/// A recording that no longer decodes (a renamed field, a type that changed) fails here, with the decoding
/// error naming the field, before any app code reads it.
public enum RecordedFixtures {
    /// The base URL recorded requests are replayed under: an `.invalid` host that can never reach a server.
    public static let replayHost = "https://recorded.invalid"

    /// Replays `request` from the folder (never touching the network) and decodes its answer as the request does.
    ///
    /// - Parameters:
    ///   - request: The request whose `Response` type decodes the answer.
    ///   - directory: The recorded folder.
    ///   - basePath: The base path the folder was recorded under, such as `/v1`; `/` for none.
    ///   - options: The options the folder was recorded with (body matching).
    /// - Returns: The decoded answer.
    /// - Throws: `NetworkError` as the client throws it: a missing recording, an unacceptable status, a body that
    ///   does not decode.
    public static func decode<Response>(
        _ request: NetworkRequest<Response>, from directory: URL, basePath: String = "/",
        options: RecordingOptions = RecordingOptions()
    ) async throws -> Response {
        let transport = RecordingTransport(replaying: directory, basePath: basePath, options: options)
        let base = URL(string: replayHost + (basePath == "/" ? "" : basePath))
        return try await NetworkClient(baseURL: base, transport: transport).send(request)
    }
}
