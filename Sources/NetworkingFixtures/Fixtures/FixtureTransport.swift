import Foundation
import NetworkingHTTP
import NetworkingCore

/// An `HTTPTransport` that answers from a folder of JSON files, for developing before the backend exists and
/// for demos and tests that must not touch the network.
///
/// ### Naming rule
/// A request is answered by the file named after its path and method, relative to the folder:
///
/// | Request | File |
/// |---|---|
/// | `GET /countries` | `countries.GET.json` |
/// | `GET /countries/fr` | `countries/fr.GET.json` |
/// | `POST /countries/fr/visits` | `countries/fr/visits.POST.json` |
/// | `GET /` | `index.GET.json` |
///
/// The path is taken after `basePath` (so with `basePath: "/v1"`, `GET /v1/countries` reads `countries.GET.json`),
/// percent-decoded, without its query. The answer is `200` with `Content-Type: application/json` and an
/// `X-Fixture-File` header naming the file, and an `ETag` (see "Revalidation"). A missing file throws ``FixtureError`` naming the file looked for; a
/// file that is not valid JSON throws one naming the file and the line and column of the problem.
///
/// ### Manifest
/// An optional `fixtures.json` in the folder adds what a plain file cannot say. Keys are `"METHOD /path"`, where
/// the path may end with query items the request must carry (`?name=japan`) and a `*` segment matches any one
/// segment; the most specific entry wins. Each entry is a response, or a `sequence` of responses played in order
/// whose last one repeats:
/// ```json
/// {
///   "routes": {
///     "GET /countries/fr": { "headers": { "Cache-Control": "max-age=60" }, "delay": 0.2 },
///     "GET /search?name=japan": { "file": "search/japan.json" },
///     "GET /countries": { "sequence": [
///       { "status": 503, "headers": { "Retry-After": "1" }, "body": { "error": "warming up" } },
///       { }
///     ] }
///   }
/// }
/// ```
/// Response fields, all optional: `status` (default 200), `headers`, `delay` in seconds, 0 to 86400 (waited on the injected
/// clock), `file` (instead of the named file) or `body` (inline JSON). A response with a status other than 200 and
/// no `file` or `body` has an empty body when its named file does not exist. Unknown fields are refused, so a typo
/// is an error naming the manifest entry, not a silent default; top-level keys starting with `_` are comments.
///
/// ### Revalidation
/// A `200` to `GET` or `HEAD` answered from memory (not a streamed file of 64 KiB or more) carries a strong `ETag`
/// made from the body's bytes (the first 16 bytes of their SHA-256, in hex, quoted), unless the manifest sets one.
/// A request whose `If-None-Match` lists that tag (or `*`) is answered `304 Not Modified` with the same headers but
/// `Content-Type`, and no body, so an HTTP cache revalidates against
/// fixtures as against a server. No `Cache-Control` is added: set one in the manifest (`"headers":
/// { "Cache-Control": "max-age=60" }`); without it a cache stores the answer and revalidates it on every use.
///
/// ### Recording
/// ``RecordingTransport`` writes a folder in this format from a live backend (secrets scrubbed, volatile headers
/// dropped), so a recorded folder is served by this transport as it is.
///
/// ### Going live
/// Keep the choice in one place: the same client code runs on fixtures or on the network.
/// ```swift
/// let baseURL = URL(string: "https://api.example.com/v1")!
/// let client = NetworkClient(
///     baseURL: baseURL,
///     transport: useFixtures
///         ? FixtureTransport(directory: fixturesURL, basePath: baseURL.path) : DefaultTransport.shared)
/// ```
public final class FixtureTransport: HTTPTransport {
    /// The name of the optional manifest in the fixture folder.
    public static let manifestName = "fixtures.json"

    /// The folder the fixtures are read from.
    public let directory: URL
    /// The leading path removed from request paths before naming files, such as `/v1`.
    public let basePath: String
    /// The clock that manifest delays wait on.
    public let clock: any NetworkClock
    private let state = LockedBox(State())

    private struct State {
        var manifest: Result<Manifest, Problem>?
        var served: [String: Int] = [:]
    }

    /// Creates a transport reading fixtures from `directory`. Nothing is read until the first request.
    ///
    /// - Parameters:
    ///   - directory: The fixture folder.
    ///   - basePath: A leading path to remove from request paths, usually the base URL's path; `/` for none.
    ///   - clock: The clock manifest delays wait on.
    public init(directory: URL, basePath: String = "/", clock: any NetworkClock = SystemClock()) {
        self.directory = directory
        self.basePath = basePath
        self.clock = clock
    }

    /// The file that answers `method` on `path` when the manifest says nothing else, such as
    /// `countries/fr.GET.json`.
    ///
    /// - Parameters:
    ///   - method: The request method.
    ///   - path: The path after the base path, without query.
    /// - Returns: The file name, relative to the fixture folder.
    public static func fileName(method: HTTPMethod, path: String) -> String {
        fileName(method: method.rawValue.uppercased(), segments: segments(of: path))
    }

    /// Answers `request` from the manifest and the fixture files.
    ///
    /// A JSON fixture, an inline body and a file under ``streamingThreshold`` are answered from memory, with an
    /// `ETag` and `304` for a matching `If-None-Match`; a larger file is streamed in 64 KiB chunks read as the reader
    /// asks for them.
    ///
    /// - Parameter request: The request to answer.
    /// - Returns: The fixture's body and a response head.
    /// - Throws: ``FixtureError`` when no valid fixture answers the request; `CancellationError` when cancelled.
    public func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
        try Task.checkCancellation()
        let method = request.method.rawValue.uppercased()
        let segments = try relativeSegments(of: request.pathWithoutQuery, method: method)
        let name = "\(method) /\(segments.joined(separator: "/"))"
        let query = request.queryItems.reduce(into: [String: String]()) { $0[$1.name] = $1.value ?? "" }

        let spec = try nextSpec(method: method, segments: segments, query: query, requestName: name)
        let conventional = Self.fileName(method: method, segments: segments)
        let (inMemory, file): (Data, String)
        do {
            (inMemory, file) = try body(for: spec, conventional: conventional, requestName: name, reading: false)
        } catch let error as FixtureError where error.kind == .missingFixture && spec.file == nil {
            throw explainingBasePath(error, method: method, segments: segments)
        }
        if let delay = spec.delay { try await clock.sleep(for: delay) }

        var headers = HTTPFields(spec.headers)
        let json = file.hasSuffix(".json") || spec.body != nil
        if json, !headers.contains(.contentType) { headers[.contentType] = "application/json" }
        headers["X-Fixture-File"] = file
        let url = directory.appendingPathComponent(file)
        let fromFile = !json && FileManager.default.fileExists(atPath: url.path)
        let trailers = spec.trailers.isEmpty ? nil : HTTPFields(spec.trailers)
        if fromFile, let size = HTTPBody.file(url).length, size >= Self.streamingThreshold {
            let head = HTTPResponse(status: .init(code: spec.status), headerFields: headers, url: request.url)
            return try streamed(url, head: head, size: size, trailers: trailers, requestName: name, file: file)
        }
        let body = fromFile ? try readFile(url, requestName: name, file: file) : inMemory
        let (head, data) = Self.answer(request, status: spec.status, headers: headers, body: body)
        var answer = HTTPBody.data(data)
        answer.trailerFields = head.status == .notModified ? nil : trailers
        return (head, answer)
    }

    /// Reads the manifest and every file it names, throwing the first problem: call it at start-up or in a test
    /// to find a broken fixture folder (or a missing one) before any request does.
    ///
    /// - Throws: ``FixtureError`` naming the file and the problem.
    public func validate() throws {
        if let reason = missingFolderReason {
            throw FixtureError(
                .missingFixture, request: "validation", file: "", directory: directory.path, reason: reason)
        }
        let manifest = try loadManifest(requestName: "validation")
        for route in manifest.routes {
            for step in route.steps where step.body == nil {
                let conventional = Self.fileName(method: route.method, segments: route.segments)
                if route.segments.contains("*") && step.file == nil { continue }
                _ = try body(for: step, conventional: conventional, requestName: route.key)
            }
        }
    }

    // MARK: - Lookup

    /// The manifest's answer for this request, advancing its sequence, or the plain default answer.
    package func nextSpec(
        method: String, segments: [String], query: [String: String], requestName: String
    ) throws -> ResponseSpec {
        let manifest = try loadManifest(requestName: requestName)
        var best: Route?
        for route in manifest.routes where route.matches(method: method, segments: segments, query: query) {
            if let current = best, current.specificity >= route.specificity { continue }
            best = route
        }
        guard let route = best else { return ResponseSpec() }
        return state.withLock { state in
            let served = state.served[route.key, default: 0]
            state.served[route.key] = served + 1
            return route.steps[min(served, route.steps.count - 1)]
        }
    }

    private func loadManifest(requestName: String) throws -> Manifest {
        let loaded = state.withLock { state in
            if let manifest = state.manifest { return manifest }
            let url = directory.appendingPathComponent(Self.manifestName)
            let result: Result<Manifest, Problem>
            if !FileManager.default.fileExists(atPath: url.path) {
                result = .success(Manifest())
            } else if let data = try? FileContents.read(url) {
                result = Result { () throws(Problem) in try Manifest.parse(data) }
            } else {
                result = .failure(Problem("the file cannot be read"))
            }
            state.manifest = result
            return result
        }
        switch loaded {
        case .success(let manifest):
            return manifest
        case .failure(let problem):
            throw FixtureError(
                .invalidManifest, request: requestName, file: Self.manifestName, directory: directory.path,
                reason: problem.reason)
        }
    }

    /// The body for `spec` and the name of the file it came from.
    package func body(for spec: ResponseSpec, conventional: String, requestName: String, reading: Bool = true) throws
        -> (
            Data, String
        )
    {
        if let inline = spec.body { return (inline, "\(Self.manifestName) (inline body)") }
        let file = spec.file ?? conventional
        let url = directory.appendingPathComponent(file)
        func failure(_ kind: FixtureError.Kind, _ reason: String) -> FixtureError {
            FixtureError(kind, request: requestName, file: file, directory: directory.path, reason: reason)
        }
        guard FileManager.default.fileExists(atPath: url.path) else {
            if let reason = missingFolderReason { throw failure(.missingFixture, reason) }
            if spec.file == nil && spec.status != 200 { return (Data(), "(no file)") }
            throw failure(.missingFixture, FixtureError.fileDoesNotExist)
        }
        // A streamed file other than JSON is read by the stream, in chunks.
        if !reading && !file.hasSuffix(".json") { return (Data(), file) }
        guard let data = try? FileContents.read(url) else { throw failure(.invalidFixture, "the file cannot be read") }
        if file.hasSuffix(".json") {
            do {
                _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            } catch {
                throw failure(.invalidFixture, JSONProblem.describe(error, in: data))
            }
        }
        return (data, file)
    }

    /// The request path's segments after `basePath`, percent-decoded; refuses anything that could leave the folder.
    package func relativeSegments(of path: String, method: String) throws -> [String] {
        let raw = path.split(separator: "/").map(String.init)
        let base = Self.segments(of: basePath)
        func refuse(_ reason: String) -> FixtureError {
            FixtureError(
                .unsafePath, request: "\(method) \(path)", file: "", directory: directory.path, reason: reason)
        }
        guard raw.count >= base.count, Array(raw.prefix(base.count)) == base else {
            throw refuse("the path is outside the base path \(basePath)")
        }
        var segments: [String] = []
        for encoded in raw.dropFirst(base.count) {
            let segment = encoded.removingPercentEncoding ?? encoded
            guard segment != "." && segment != "..", !segment.contains("/"), !segment.contains("\0") else {
                throw refuse("the segment \"\(encoded)\" cannot name a file safely")
            }
            segments.append(segment)
        }
        return segments
    }

    /// The raw segments of `path` without its query (percent-encoded, as they name files).
    package static func segments(of path: String) -> [String] {
        let bare = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return bare.split(separator: "/").map(String.init)
    }

    package static func fileName(method: String, segments: [String]) -> String {
        (segments.isEmpty ? "index" : segments.joined(separator: "/")) + ".\(method).json"
    }
}
