import Foundation
import NetworkingHTTP
import NetworkingCore

/// An `HTTPTransport` that records the exchanges of another transport into a fixture folder and replays them
/// offline: the folder is in the format ``FixtureTransport`` reads (named files plus a `fixtures.json` manifest),
/// so a recorded folder also replays with ``FixtureTransport`` and no conversion.
///
/// ```swift
/// let transport = RecordingTransport(
///     wrapping: liveTransport, directory: fixturesURL, mode: .recordMissing, basePath: "/v1")
/// let client = NetworkClient(baseURL: URL(string: "https://api.example.com/v1")!, transport: transport)
/// ```
///
/// ### Modes
/// - ``Mode/replayOnly``: never touches the network; a request with no recording fails with ``RecordingError``
///   naming the closest recorded requests.
/// - ``Mode/recordMissing``: replays what is recorded and sends the rest to the wrapped transport, recording it.
///   It never replaces a file: a file in the way is a ``RecordingError/Kind/wouldOverwrite`` error.
/// - ``Mode/recordAll``: sends every request and records it again, replacing earlier recordings of the same
///   requests; ``overwrittenFiles`` lists the files it replaced.
///
/// ### Matching
/// A request matches a recording by method, path after `basePath`, and query (in any order; secret query
/// parameters are left out and match any value), and with ``RecordingOptions/matchesBody`` by its body. Repeated
/// identical requests are recorded as a manifest `sequence` and replayed in order; in replay only, the last
/// answer repeats, as with ``FixtureTransport``.
///
/// ### What is written
/// Each answer is a file named like ``FixtureTransport``'s (`countries/fr.GET.json`; the query, a sequence index
/// and the extension distinguish others) and a manifest entry with its status and headers. Secrets never reach
/// disk (see ``RecordingOptions/redaction``); volatile headers are dropped; JSON is pretty-printed with sorted keys;
/// an event stream is kept with its event boundaries. A recorded answer is read whole (up to
/// ``RecordingOptions/maximumBodySize``) before it is handed on, with its trailer fields (written under `trailers`,
/// scrubbed as headers are): a request whose body waits on the response (`HTTPBody/waitsOnResponse`) cannot be
/// recorded and is refused at once with a `TransportError`. Every file is written whole (a temporary file renamed
/// into place), so concurrent calls never tear one.
public final class RecordingTransport: HTTPTransport {
    /// What the transport does with a request.
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        /// Replays recordings only; never sends a request.
        case replayOnly
        /// Replays what is recorded and records what is missing.
        case recordMissing
        /// Records every request again, replacing earlier recordings on purpose.
        case recordAll
    }

    /// The transport requests are sent to when recording.
    public let upstream: any HTTPTransport
    /// The fixture folder.
    public let directory: URL
    /// What the transport does with a request.
    public let mode: Mode
    /// The leading path removed from request paths before naming files, such as `/v1`.
    public let basePath: String
    /// What is written and how requests match.
    public let options: RecordingOptions
    /// The clock that replay waits on (manifest delays, recorded pacing) and recording times chunks with.
    public let clock: any NetworkClock
    let paths: FixtureTransport
    let writer: FixtureWriter
    let state = LockedBox(State())

    struct State {
        var cassette: Cassette?
        var keys: [RecordKey: String] = [:]
        var served: [String: Int] = [:]
        var rerecorded: Set<String> = []
        var overwritten: [String] = []
        var sent = 0
    }

    /// Creates a transport recording the exchanges of `upstream` into `directory`. Nothing is read until the
    /// first request.
    ///
    /// - Parameters:
    ///   - upstream: The transport requests go to when recording, usually the network transport.
    ///   - directory: The fixture folder; created when the first recording is written.
    ///   - mode: Replay only, record what is missing, or record everything again.
    ///   - basePath: A leading path to remove from request paths, usually the base URL's path; `/` for none.
    ///   - options: What is written and how requests match.
    ///   - clock: The clock replay waits on and recording times chunks with.
    public init(
        wrapping upstream: any HTTPTransport, directory: URL, mode: Mode, basePath: String = "/",
        options: RecordingOptions = RecordingOptions(), clock: any NetworkClock = SystemClock()
    ) {
        self.upstream = upstream
        self.directory = directory
        self.mode = mode
        self.basePath = basePath
        self.options = options
        self.clock = clock
        paths = FixtureTransport(directory: directory, basePath: basePath, clock: clock)
        writer = FixtureWriter(directory: directory)
    }

    /// Creates a transport that replays `directory` and never touches the network (``Mode/replayOnly``).
    ///
    /// - Parameters:
    ///   - directory: The recorded fixture folder.
    ///   - basePath: A leading path to remove from request paths, usually the base URL's path; `/` for none.
    ///   - options: How requests match; must match the options the folder was recorded with.
    ///   - clock: The clock replay waits on.
    public convenience init(
        replaying directory: URL, basePath: String = "/", options: RecordingOptions = RecordingOptions(),
        clock: any NetworkClock = SystemClock()
    ) {
        self.init(
            wrapping: OfflineTransport(), directory: directory, mode: .replayOnly, basePath: basePath,
            options: options, clock: clock)
    }

    /// How many requests were sent to ``upstream``.
    public var upstreamRequestCount: Int { state.withLock { $0.sent } }

    /// The files a ``Mode/recordAll`` recording replaced, relative to the folder, in the order replaced.
    public var overwrittenFiles: [String] { state.withLock { $0.overwritten } }

    /// Replays the recording of `request`, or sends it to ``upstream`` and records it, as ``mode`` says.
    ///
    /// - Parameter request: The request.
    /// - Returns: The recorded or live response and its body.
    /// - Throws: ``RecordingError`` when nothing is recorded in replay only, or the recording cannot be written;
    ///   `FixtureError` for a path that cannot name a file; the upstream's errors; `CancellationError`.
    public func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
        try Task.checkCancellation()
        let method = request.method.rawValue.uppercased()
        let segments = try paths.relativeSegments(of: request.pathWithoutQuery, method: method)
        let key = RecordKey(method: method, segments: segments, query: request.queryItems, redaction: options.redaction)
        let scrubber = Scrubber(request: request, options: options)
        let requestBody = storedRequestBody(request, scrubber: scrubber)
        let digest = options.matchesBody ? Self.digest(requestBody ?? Data()) : nil
        switch try lookup(key, digest: digest) {
        case .replay(let step):
            return try await replay(step, for: request, name: key.manifestKey)
        case .record:
            // Recording reads the whole response before answering: a body that waits on it would wait forever.
            if let problem = request.body.fullDuplexOrTrailersProblem, request.body.waitsOnResponse {
                throw TransportError(
                    .other,
                    "\(request): \(problem), which RecordingTransport cannot record (it reads the whole response "
                        + "before answering); nothing was sent")
            }
            return try await record(
                request, key: key, scrubber: scrubber, requestBody: requestBody, digest: digest)
        }
    }

    enum Decision {
        case replay(RecordedStep)
        case record
    }

    /// What to do with a request: replay a step, or record it. Counts the request toward its sequence.
    func lookup(_ key: RecordKey, digest: String?) throws -> Decision {
        try state.withLock { state -> Decision in
            try load(&state, requestName: key.manifestKey)
            let manifestKey = state.keys[key]
            let steps = manifestKey.flatMap { state.cassette?.routes[$0] } ?? []
            let candidates = steps.filter { digest == nil || $0.requestBody == digest }
            let counter = (manifestKey ?? key.manifestKey) + (digest.map { " " + $0 } ?? "")
            let served = state.served[counter, default: 0]
            state.served[counter] = served + 1
            switch mode {
            case .replayOnly:
                guard let last = candidates.last else {
                    throw RecordingError(
                        .notRecorded, request: key.manifestKey, directory: directory.path,
                        reason: "nothing recorded", closest: closest(to: key, in: state))
                }
                return .replay(served < candidates.count ? candidates[served] : last)
            case .recordMissing:
                return served < candidates.count ? .replay(candidates[served]) : .record
            case .recordAll:
                return .record
            }
        }
    }

    /// Reads the manifest once.
    func load(_ state: inout State, requestName: String) throws {
        guard state.cassette == nil else { return }
        let url = directory.appendingPathComponent(FixtureTransport.manifestName)
        var cassette = Cassette()
        if FileManager.default.fileExists(atPath: url.path) {
            guard let data = try? FileContents.read(url) else {
                throw RecordingError(
                    .invalidManifest, request: requestName, file: FixtureTransport.manifestName,
                    directory: directory.path, reason: "the file cannot be read")
            }
            do {
                cassette = try Cassette.parse(data)
            } catch {
                throw RecordingError(
                    .invalidManifest, request: requestName, file: FixtureTransport.manifestName,
                    directory: directory.path, reason: error.reason)
            }
        }
        state.cassette = cassette
        state.keys = [:]
        for manifestKey in cassette.routes.keys {
            if let key = RecordKey(manifestKey: manifestKey, redaction: options.redaction) {
                state.keys[key] = manifestKey
            }
        }
    }

    /// The recorded requests nearest to `key`, nearest first.
    private func closest(to key: RecordKey, in state: State) -> [String] {
        state.keys.sorted { ($0.key.distance(to: key), $0.value) < ($1.key.distance(to: key), $1.value) }
            .prefix(3).map(\.value)
    }

    /// A short digest of a request body: `sha256:` and 16 hex digits.
    static func digest(_ data: Data) -> String {
        "sha256:" + SHA256.digest(data).prefix(8).map { String(format: "%02x", $0) }.joined()
    }
}
