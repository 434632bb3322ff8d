import Foundation
import NetworkingHTTP
import NetworkingCore

/// Where ``LoggingBehavior`` writes its lines: one call per event, with one line of text and no newline.
///
/// The behavior awaits the sink **inline**, on the calling task, before the request goes on and before the
/// outcome is returned, so lines keep their order and a slow sink slows the call down without breaking it. The
/// last line of a streamed body is written just after the stream ends, from a task of its own: it may arrive after
/// the reader has moved on.
/// Keep sinks fast: append to a buffer, hand the line to `os.Logger` or to an actor, never wait for the network.
/// ```swift
/// // Fragment: Apple platforms, with an os.Logger of yours.
/// let sink = LogSink { line in logger.debug("\(line, privacy: .public)") }
/// ```
public struct LogSink: Sendable {
    private let body: @Sendable (String) async -> Void
    /// Whether the sink drops every line, so the logging behavior builds none: only ``discard`` does.
    public let discards: Bool

    /// Creates a sink from a closure.
    ///
    /// - Parameter write: Receives each line, without a trailing newline.
    public init(_ write: @escaping @Sendable (String) async -> Void) {
        self.body = write
        self.discards = false
    }

    private init(discarding: Void) {
        self.body = { _ in }
        self.discards = true
    }

    /// Writes one line.
    ///
    /// - Parameter line: The line, without a trailing newline.
    public func write(_ line: String) async {
        await body(line)
    }

    /// The default: each line plus a newline goes to standard error in a single `write` call, so lines from
    /// concurrent calls never interleave within a line. Write errors (a closed stream) are ignored.
    public static let standardError = LogSink { line in
        try? FileHandle.standardError.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Drops every line; the logging behavior then does no work at all.
    public static let discard = LogSink(discarding: ())
}
