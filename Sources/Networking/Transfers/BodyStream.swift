import Foundation

/// A request body produced as an async sequence of byte chunks, with an optional announced length.
///
/// ```swift
/// let body = BodyStream(length: 3) {
///     AsyncThrowingStream { continuation in
///         continuation.yield(Data("ab".utf8))
///         continuation.yield(Data("c".utf8))
///         continuation.finish()
///     }
/// }
/// let request = NetworkRequest<Receipt>(.put, path: "/logs/today", body: .stream(body))
/// ```
///
/// - **Restartable or not.** Made with a closure (`init(length:restart:)`), the stream is produced afresh for
///   every attempt, so retries work. Made from one sequence (`init(length:once:)`), it can be sent once: a retry
///   policy does not retry it (``HTTPRequest/Body/isReplayable`` is `false`), and sending it a second time fails
///   before any I/O with `NetworkError` of kind `invalidRequest` saying it was consumed.
/// - **How it is sent.** The transport collects the chunks in a temporary file, in order, then sends the file with
///   an exact `Content-Length`, so memory stays flat however long the stream; the request goes out once the
///   sequence ends (Foundation's networking on Linux cannot pull a request body from an async producer without
///   stalling its other transfers). A 307/308 redirect resends that copy whole for a restartable stream; for a
///   one-time stream it is refused (`transport(redirectRefused)`), as a retry would be.
/// - **Length.** When `length` is given, a stream that produces another number of bytes fails the call with a
///   transport error naming both counts, and nothing is sent.
public struct BodyStream: Sendable, Hashable {
    /// The chunks of one sending.
    public typealias Chunks = AsyncThrowingStream<Data, any Error>

    private enum Source: Sendable {
        case restartable(@Sendable () -> Chunks)
        case once(LockedBox<Chunks?>)
    }

    /// The number of bytes the stream produces, if known in advance.
    public let length: Int64?
    private let source: Source
    private let identity = UUID()

    /// Creates a restartable stream: `restart` is called for every attempt and must produce the same bytes.
    /// - Parameters:
    ///   - length: The number of bytes each sending produces, if known.
    ///   - restart: Makes the chunks of one sending.
    public init(length: Int64? = nil, restart: @escaping @Sendable () -> Chunks) {
        self.length = length
        self.source = .restartable(restart)
    }

    /// Creates a stream that can be sent once.
    /// - Parameters:
    ///   - length: The number of bytes the sequence produces, if known.
    ///   - chunks: The chunks.
    public init(length: Int64? = nil, once chunks: Chunks) {
        self.length = length
        self.source = .once(LockedBox(chunks))
    }

    /// Whether every attempt can get the whole stream again (made with `init(length:restart:)`).
    public var isRestartable: Bool {
        if case .restartable = source { true } else { false }
    }

    /// Whether a one-time stream was already taken by a sending.
    var isConsumed: Bool {
        if case .once(let box) = source { box.current == nil } else { false }
    }

    /// The chunks for one sending, or `nil` when a one-time stream was already taken.
    package func takeChunks() -> Chunks? {
        switch source {
        case .restartable(let restart): restart()
        case .once(let box):
            box.withLock { chunks in
                defer { chunks = nil }
                return chunks
            }
        }
    }

    /// Two values are equal when they are copies of one stream.
    public static func == (lhs: BodyStream, rhs: BodyStream) -> Bool { lhs.identity == rhs.identity }

    /// Hashes the stream's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(identity) }
}
