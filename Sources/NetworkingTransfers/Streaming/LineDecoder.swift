import Foundation
import NetworkingHTTP
import NetworkingCore

/// Splits a stream of byte chunks into text lines: a pure, push-style value you feed chunk by chunk.
///
/// Lines end with LF, CRLF or a lone CR, and a line end split across two chunks (CR at the end of one, LF at the
/// start of the next) counts once. Lines come out without their line end, decoded as UTF-8 (invalid bytes become
/// U+FFFD). An unfinished line is kept until its end arrives or ``finish()`` is called; a line is buffered whole,
/// so memory grows with the longest line, not with the stream.
///
/// ```swift
/// var decoder = LineDecoder()
/// var lines = decoder.decode(Data("one\r".utf8))  // ["one"]
/// lines += decoder.decode(Data("\ntwo".utf8))     // [] : the LF ends "one", "two" waits
/// lines += decoder.finish()                        // ["two"]
/// ```
///
/// To split a chunk stream, use `AsyncSequence.lines` on any async sequence of `Data`.
public struct LineDecoder: Sendable {
    private var splitter = LineSplitter()

    /// Creates a decoder at the start of a stream.
    public init() {}

    /// Feeds the next chunk of the stream.
    /// - Parameter chunk: The next bytes, of any size (empty chunks are allowed).
    /// - Returns: The lines this chunk completes, in order, without their line ends.
    public mutating func decode(_ chunk: Data) -> [String] {
        var lines: [String] = []
        splitter.push(chunk) { lines.append(String(decoding: $0, as: UTF8.self)) }
        return lines
    }

    /// Ends the stream.
    /// - Returns: The last line if the stream did not end with a line end, else nothing.
    public mutating func finish() -> [String] {
        var lines: [String] = []
        splitter.finish { lines.append(String(decoding: $0, as: UTF8.self)) }
        return lines
    }
}
