import NetworkingHTTP
import NetworkingCore

/// What a ``RecordingTransport`` writes and how it matches requests: which secrets it scrubs, which headers it
/// drops, how it writes JSON, whether the request body takes part in matching, and what it keeps of a stream.
///
/// The defaults record a reviewable, deterministic folder with no secret in it:
/// ```swift
/// var options = RecordingOptions()
/// options.redaction = Redaction(headerNames: ["X-API-Key"], queryParameterNames: ["signature"])
/// options.scrubbedJSONKeys.insert("session_id")
/// options.matchesBody = true
/// ```
public struct RecordingOptions: Sendable, Hashable {
    /// How JSON bodies are written.
    public enum JSONStyle: Sendable, Hashable {
        /// Pretty-printed with sorted keys: reviewable and stable, and replayed as that text (the same JSON value).
        case pretty
        /// As received, byte for byte (secrets still scrubbed): replayed byte-identical.
        case asReceived
    }

    /// Header fields whose values change on every call and are dropped unless kept with ``keptHeaderNames``:
    /// `Date`, `Age`, `Expires`, `Last-Modified`, request and trace IDs, `Server-Timing`, `X-Runtime`.
    public static let volatileHeaderNames: Set<String> = [
        "date", "age", "expires", "last-modified", "x-request-id", "request-id", "x-correlation-id", "x-trace-id",
        "traceparent", "x-amzn-requestid", "x-amz-request-id", "x-amz-id-2", "cf-ray", "server-timing", "x-runtime",
        "x-served-by", "x-cache", "x-timer",
    ]

    /// Header fields about one connection or one encoding, never written: the replayed body is the decoded body,
    /// so its length and framing are the fixture's own. `Content-Length`, `Transfer-Encoding`, `Content-Encoding`,
    /// `Connection`, `Keep-Alive`.
    public static let framingHeaderNames: Set<String> = [
        "content-length", "transfer-encoding", "content-encoding", "connection", "keep-alive",
    ]

    /// JSON body keys whose values are always replaced: the query parameter names `Redaction` redacts, plus
    /// `refresh_token` and `id_token`.
    public static let defaultScrubbedJSONKeys: Set<String> = Redaction.defaultQueryParameterNames.union([
        "refresh_token", "id_token",
    ])

    /// The headers and query parameters whose values never reach disk, the rules logs use: `Authorization`,
    /// `Proxy-Authorization`, `Cookie`, `Set-Cookie`, every field marked sensitive, and the secret query
    /// parameters (`access_token`, `api_key`, `token`...). Add names to scrub more; the defaults always apply.
    public var redaction: Redaction = .default
    /// Lower-cased keys of JSON objects whose values are replaced by the placeholder, at any depth, in response
    /// bodies and stored request bodies. The defaults (``defaultScrubbedJSONKeys``) always apply too.
    public var scrubbedJSONKeys: Set<String> = []
    /// Volatile headers to keep after all, such as `["last-modified"]`; case does not matter.
    public var keptHeaderNames: Set<String> = []
    /// How JSON bodies are written; ``JSONStyle/pretty`` by default.
    public var jsonStyle: JSONStyle = .pretty
    /// Whether requests with different bodies are different recordings (a digest of the body is stored with
    /// each answer). Off by default: method, path and query decide.
    public var matchesBody = false
    /// Whether the chunk sizes of every streamed response are recorded and replayed as such. Event streams
    /// (`text/event-stream`) are always recorded as their events.
    public var recordsChunks = false
    /// Whether the time each chunk or event arrived is recorded, so that replay can wait as long on its clock.
    /// Off by default: arrival times differ on every recording.
    public var recordsPacing = false
    /// Whether replay waits on the transport's clock for the recorded pacing of a stream.
    public var replaysPacing = false
    /// The largest response body recorded; a larger one fails the call with ``RecordingError``.
    public var maximumBodySize = 64 * 1024 * 1024

    /// Options with the defaults: scrubbing on, volatile headers dropped, pretty JSON, no body matching.
    public init() {}

    /// Whether a response header is written.
    func keepsHeader(_ name: HTTPField.Name) -> Bool {
        let lower = name.canonicalName
        if Self.framingHeaderNames.contains(lower) { return false }
        return !Self.volatileHeaderNames.contains(lower)
            || keptHeaderNames.contains { HTTPToken.lowercasedASCII($0) == lower }
    }

    /// Every JSON key scrubbed, lower-cased.
    var allScrubbedJSONKeys: Set<String> {
        Self.defaultScrubbedJSONKeys.union(scrubbedJSONKeys.map(HTTPToken.lowercasedASCII))
    }
}
