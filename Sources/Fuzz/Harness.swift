import Foundation

/// One harness per reader of bytes the network or a file controls. Each checks invariants, not only that nothing
/// crashes: a broken one stops the process (`fatalError`), which libFuzzer reports with the input.
enum Harness: String, CaseIterable {
    /// The libcurl transport's head parser.
    case head
    /// Header field names and values as the model admits them.
    case fields
    /// `Set-Cookie` fields, alone and joined.
    case setCookie = "set-cookie"
    /// Cookie dates and HTTP dates.
    case dates
    /// `Cache-Control`, `Age` and `Expires` as the cache reads them.
    case cacheControl = "cache-control"
    /// `Retry-After`.
    case retryAfter = "retry-after"
    /// The event-stream decoder.
    case events
    /// The line splitter.
    case lines
    /// `Content-Type` and its charset, and a body decoded as text.
    case charset
    /// The fixture manifest and the recorded-fixture reader.
    case manifest
    /// `DriftReport`'s comparison of two JSON values.
    case drift
    /// Paths and queries built from user values.
    case url
    /// The WebSocket frame reader (RFC 6455 §5).
    case webSocket = "websocket"
    /// The libcurl transport's reader of a WebSocket handshake's answer: the HTTP/1.1 head and a refusal's chunks.
    case upgrade

    func run(_ data: Data) {
        switch self {
        case .head: Self.head(data)
        case .fields: Self.fields(data)
        case .setCookie: Self.setCookie(data)
        case .dates: Self.dates(data)
        case .cacheControl: Self.cacheControl(data)
        case .retryAfter: Self.retryAfter(data)
        case .events: Self.events(data)
        case .lines: Self.lines(data)
        case .charset: Self.charset(data)
        case .manifest: Self.manifest(data)
        case .drift: Self.drift(data)
        case .url: Self.url(data)
        case .webSocket: Self.webSocketFrames(data)
        case .upgrade: Self.upgradeHead(data)
        }
    }

    /// Stops the run when an invariant does not hold, naming it.
    static func check(_ condition: @autoclosure () -> Bool, _ invariant: @autoclosure () -> String) {
        if !condition() { fatalError("invariant broken: \(invariant())") }
    }

    /// The input as text, bytes that are not UTF-8 replaced (what a header or a file reader gets).
    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    /// The input split at its first NUL byte into two texts (a name and a value, a request and an answer).
    static func pair(_ data: Data) -> (String, String) {
        guard let split = data.firstIndex(of: 0) else { return (text(data), "") }
        return (text(data[..<split]), text(data[(split + 1)...]))
    }

    /// The input cut into chunks at the positions its first byte names: the same bytes, as a network delivers them.
    static func chunks(_ data: Data) -> [Data] {
        guard let seed = data.first else { return [] }
        var chunks: [Data] = []
        var start = data.startIndex + 1
        var size = Int(seed % 17) + 1
        while start < data.endIndex {
            let end = min(start + size, data.endIndex)
            chunks.append(data[start..<end])
            start = end
            size = (size * 7 + 3) % 23 + 1
        }
        return chunks
    }
}
