import Foundation

/// The body of a request or a response: bytes in memory, a file, or chunks produced by an async sequence or
/// arriving from the network. One type for both directions, read the same way: `for try await chunk in body`.
///
/// ```swift
/// let small = HTTPBody.data(Data("hello".utf8))                 // in memory
/// let large = HTTPBody.file(URL(fileURLWithPath: "/tmp/video.mp4"))  // read from disk for every sending
/// let produced = HTTPBody(length: 3) {                           // produced afresh for every sending
///     AsyncThrowingStream { continuation in
///         continuation.yield(Data("abc".utf8))
///         continuation.finish()
///     }
/// }
/// ```
///
/// - **Replayable or not.** Bytes, a file and a restartable producer (`init(length:restart:)`) can be sent again by
///   a retry or a 307/308 redirect (``isReplayable``). A one-time producer (`init(length:once:)`) and a body arriving
///   from the network can be read once.
/// - **Length.** Known for bytes, for a producer that announces it, for a file once measured, and for a response
///   whose transport said it; `nil` otherwise.
/// - **A body arriving** (``makeStream(length:bufferLimit:onDemand:)``, what a transport returns) has one reader and
///   a bounded buffer: a full buffer tells the producer to wait. Cancelling the reading task, calling ``cancel()``,
///   or dropping the last copy ends it as cancelled, and the transport closes its connection.
public struct HTTPBody: Sendable, Hashable, AsyncSequence, CustomStringConvertible {
    /// Each element is one chunk of the body.
    public typealias Element = Data
    /// The chunks of one sending of a produced body.
    public typealias Chunks = AsyncThrowingStream<Data, any Error>

    /// The default buffer bound of a body arriving from the network: 1 MiB, room for a few hundred network reads,
    /// small enough for any device. Until the reader first asks for a chunk, a body buffers at most 128 KiB of it.
    public static let defaultBufferLimit = 1024 * 1024

    package enum Storage: Sendable {
        case bytes(Data)
        case file(URL)
        case restartable(
            length: Int64?, make: @Sendable () -> Chunks, identity: Identity, check: (@Sendable () -> String?)?)
        case once(length: Int64?, chunks: LockedBox<Chunks?>)
        case stream(StreamHandle)
    }

    /// Cancels an arriving body when the last copy of it goes away.
    package final class StreamHandle: Sendable {
        let buffer: BodyBuffer
        let length: Int64?
        init(_ buffer: BodyBuffer, length: Int64?) {
            self.buffer = buffer
            self.length = length
        }
        deinit { buffer.finish(.cancelled) }
    }

    /// A class whose identity stands for a restartable producer in `==`.
    package final class Identity: Sendable {}

    package let storage: Storage

    /// The trailer fields set on the body (``trailerFields``): a request's, sent after its last chunk, or a body in
    /// memory's (a mock's, the cache's); a body arriving reports those the sender sent instead, once it has ended.
    package var givenTrailerFields: HTTPFields?

    /// Whether producing this body may wait on the response to its own request: a full-duplex exchange, such as a
    /// body that echoes what the response brings, or a conversation on one request. A transport must then send the
    /// body while it reads the response, and hand the response over as soon as the server ends it, whatever the
    /// body is doing. `false` by default.
    ///
    /// ```swift
    /// let (answers, writer) = AsyncThrowingStream.makeStream(of: Data.self)
    /// var body = HTTPBody(once: answers)
    /// body.waitsOnResponse = true
    /// let request = HTTPRequest(method: .post, url: chatURL, body: body)
    /// let (_, answer) = try await transport.send(request)
    /// for try await line in answer { writer.yield(reply(to: line)) }  // each reply waits on the response
    /// writer.finish()  // ends the request once the response has ended
    /// ```
    ///
    /// `CurlTransport` sends such a body over HTTP/1.1 (libcurl reports the end of an HTTP/2 response only once the
    /// request has ended too) and leaves the response body as the server sent it (no content coding is asked for).
    /// `URLSessionTransport`, which collects a produced body before it sends it, refuses the request at once with a
    /// `TransportError` rather than wait forever. Such a body is sent once: a retry or a redirect cannot send it
    /// again.
    public var waitsOnResponse = false

    package init(storage: Storage) {
        self.storage = storage
    }

    /// No body.
    public static let empty = HTTPBody(storage: .bytes(Data()))

    /// Bytes in memory.
    ///
    /// - Parameter data: The bytes.
    public init(_ data: Data) {
        storage = .bytes(data)
    }

    /// Bytes in memory: `.data(payload)`.
    ///
    /// - Parameter data: The bytes.
    /// - Returns: The body.
    public static func data(_ data: Data) -> HTTPBody { HTTPBody(data) }

    /// The contents of a local file, read from disk (memory stays flat however large the file) and opened again for
    /// every sending. A missing or unreadable file, or a URL that is not a `file:` URL, fails the call before any
    /// I/O with `NetworkError` of kind `invalidRequest` naming the path.
    ///
    /// - Parameter url: The file.
    /// - Returns: The body.
    public static func file(_ url: URL) -> HTTPBody { HTTPBody(storage: .file(url)) }

    /// A body produced afresh for every sending by `restart`, which must produce the same bytes each time.
    ///
    /// - Parameters:
    ///   - length: The number of bytes each sending produces, if known; another count fails the call.
    ///   - restart: Makes the chunks of one sending.
    public init(length: Int64? = nil, restart: @escaping @Sendable () -> Chunks) {
        storage = .restartable(length: length, make: restart, identity: Identity(), check: nil)
    }

    /// A restartable body whose sending can be refused before any I/O: `problem` says why, or `nil` when it can go.
    /// For modules that make bodies, such as a multipart form whose file part is missing.
    package init(
        length: Int64?, problem: @escaping @Sendable () -> String?, restart: @escaping @Sendable () -> Chunks
    ) {
        storage = .restartable(length: length, make: restart, identity: Identity(), check: problem)
    }

    /// Why the body cannot be sent now (a missing file, a one-time body already consumed, a module's own check);
    /// `nil` when it can. The client refuses the request before any I/O with this reason.
    package var problem: String? {
        if let reason = givenTrailerFields?.invalidReason { return "its trailer fields: \(reason)" }
        return switch storage {
        case .file(let url): BodyFile.problem(url)
        case .once(_, let box) where box.current == nil:
            "the body can be sent once and was consumed by an earlier sending; make it restartable"
        case .restartable(_, _, _, let check): check?()
        default: nil
        }
    }

    /// A body produced once by `chunks`: a retry never sends it again, and a second sending fails before any I/O.
    ///
    /// - Parameters:
    ///   - length: The number of bytes the sequence produces, if known; another count fails the call.
    ///   - chunks: The chunks.
    public init(length: Int64? = nil, once chunks: Chunks) {
        storage = .once(length: length, chunks: LockedBox(chunks))
    }

    /// A body arriving from a producer, such as a transport reading the network, and the continuation it feeds.
    ///
    /// - Parameters:
    ///   - length: The number of bytes announced (`Content-Length`), if known.
    ///   - bufferLimit: The bytes buffered before ``Continuation/yield(_:)`` answers `false`.
    ///   - onDemand: Called when the reader has drained a full buffer to half: the producer may resume.
    /// - Returns: The body, for the reader, and its continuation, for the producer.
    public static func makeStream(
        length: Int64? = nil, bufferLimit: Int = defaultBufferLimit, onDemand: (@Sendable () -> Void)? = nil
    ) -> (body: HTTPBody, continuation: Continuation) {
        let buffer = BodyBuffer(limit: bufferLimit, onDemand: onDemand)
        return (HTTPBody(storage: .stream(StreamHandle(buffer, length: length))), Continuation(buffer: buffer))
    }

    /// The bytes of a body in memory; `nil` for a file, a producer or a body arriving.
    public var data: Data? {
        if case .bytes(let data) = storage { data } else { nil }
    }

    /// The file of a body read from disk (``file(_:)``); `nil` for the others.
    public var fileURL: URL? {
        if case .file(let url) = storage { url } else { nil }
    }

    /// The number of bytes, when known: bytes in memory, a file's current size, a producer's or a transport's
    /// announced length.
    public var length: Int64? {
        switch storage {
        case .bytes(let data): Int64(data.count)
        case .file(let url): Self.size(of: url)
        case .restartable(let length, _, _, _), .once(let length, _): length
        case .stream(let handle): handle.length
        }
    }

    /// Whether a retry or a redirect can send the body again from the start: bytes, a file and a restartable
    /// producer can; a one-time producer and a body arriving cannot.
    public var isReplayable: Bool {
        switch storage {
        case .bytes, .file, .restartable: true
        case .once, .stream: false
        }
    }

    /// Whether there is nothing to send: empty bytes (a file or a producer counts as something, even empty).
    public var isEmpty: Bool {
        if case .bytes(let data) = storage { data.isEmpty } else { false }
    }

    /// Whether the body is still arriving from a producer (a response read as a stream, a download): it has one
    /// reader, so a behavior must not read or keep it; to act when it ends, use ``onTermination(_:)``.
    public var isStreaming: Bool {
        if case .stream = storage { true } else { false }
    }

    /// The buffer of a body arriving, for the client.
    package var buffer: BodyBuffer? {
        if case .stream(let handle) = storage { handle.buffer } else { nil }
    }

    /// Ends a body arriving as cancelled: buffered chunks are dropped and the producer stops. Does nothing to
    /// other bodies.
    public func cancel() {
        buffer?.finish(.cancelled)
    }

    /// Calls `observer` once, when the body has been read to its end, failed or was cancelled (at once for a body
    /// that is not arriving: it is complete). Behaviors use it to act at the end of a streamed call.
    ///
    /// - Parameter observer: Told how the body ended and how many bytes the reader received.
    public func onTermination(_ observer: @escaping @Sendable (Termination) -> Void) {
        if let buffer {
            buffer.onTermination(observer)
        } else {
            observer(Termination(outcome: .finished, byteCount: length ?? 0))
        }
    }

    /// `42 bytes`, `file /tmp/x`, `stream`.
    public var description: String {
        switch storage {
        case .bytes(let data): "\(data.count) bytes"
        case .file(let url): "file \(url.path)"
        case .restartable, .once: "produced body"
        case .stream: "stream"
        }
    }

    /// Bytes compare by value, files by URL, other bodies by identity (copies of one body are equal); the trailer
    /// fields set on them and ``waitsOnResponse`` must match too.
    public static func == (lhs: HTTPBody, rhs: HTTPBody) -> Bool {
        guard lhs.waitsOnResponse == rhs.waitsOnResponse, lhs.givenTrailerFields == rhs.givenTrailerFields else {
            return false
        }
        return switch (lhs.storage, rhs.storage) {
        case (.bytes(let a), .bytes(let b)): a == b
        case (.file(let a), .file(let b)): a == b
        case (.restartable(_, _, let a, _), .restartable(_, _, let b, _)): a === b
        case (.once(_, let a), .once(_, let b)): a === b
        case (.stream(let a), .stream(let b)): a === b
        default: false
        }
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        switch storage {
        case .bytes(let data): hasher.combine(data)
        case .file(let url): hasher.combine(url)
        case .restartable(_, _, let identity, _): hasher.combine(ObjectIdentifier(identity))
        case .once(_, let box): hasher.combine(ObjectIdentifier(box))
        case .stream(let handle): hasher.combine(ObjectIdentifier(handle))
        }
    }
}
