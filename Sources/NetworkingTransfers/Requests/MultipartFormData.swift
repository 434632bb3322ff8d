import Foundation
import NetworkingHTTP
import NetworkingCore

/// A `multipart/form-data` body (RFC 7578): text fields, in-memory data parts and file parts, in order.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append("Ada", name: "author")
/// form.append(thumbnail, name: "thumbnail", filename: "thumb.png", contentType: "image/png")
/// form.appendFile(movieURL, name: "movie", contentType: "video/mp4")
/// let request = NetworkRequest<Receipt>(.post, path: "/uploads", body: .multipart(form))
/// ```
///
/// - File parts are streamed from disk when the request is sent, and read again for every retry and every
///   307/308 redirect; memory stays flat whatever their size.
/// - `Content-Length` is exact: every part's length is known (a file's size is read when the request is sent).
/// - The boundary is `networking-` followed by 32 random letters and digits (190 bits), from the system's random
///   source or an injected generator; a data part or text field containing it is refused before any I/O, and a
///   file cannot plausibly contain a random boundary it has never seen.
/// - Names and filenames are written in quotes with `"`, CR and LF percent-encoded (`%22`, `%0D`, `%0A`), as
///   browsers do (RFC 7578 §2, WHATWG HTML form encoding); other characters, non-ASCII included, go as UTF-8.
/// - A content type containing CR or LF, and a missing or unreadable file, fail before any I/O with
///   `NetworkError` of kind `invalidRequest` naming the part.
public struct MultipartFormData: Sendable, Hashable {
    /// One part of the form.
    public struct Part: Sendable, Hashable {
        /// Where a part's bytes come from.
        public enum Content: Sendable, Hashable {
            /// Bytes in memory (text fields are their UTF-8 bytes).
            case data(Data)
            /// The contents of a local file, read when the request is sent.
            case file(URL)
        }

        /// The field name (`name` of `Content-Disposition`).
        public var name: String
        /// The file name (`filename` of `Content-Disposition`), or `nil` for a plain field.
        public var filename: String?
        /// The part's `Content-Type`, or `nil` for none (a text field).
        public var contentType: String?
        /// The part's bytes.
        public var content: Content
    }

    /// The boundary between parts, without the leading dashes.
    public let boundary: String
    /// The parts, in the order they are sent.
    public private(set) var parts: [Part] = []

    /// Creates an empty form with a boundary from the system's random source.
    public init() {
        var generator = SystemRandomNumberGenerator()
        self.init(using: &generator)
    }

    /// Creates an empty form with a boundary drawn from `generator` (inject a seeded one for reproducible bodies).
    /// - Parameter generator: The random source of the boundary.
    public init(using generator: inout some RandomNumberGenerator) {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        let random = (0..<32).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
        boundary = "networking-" + String(random)
    }

    /// The `Content-Type` of the whole body: `multipart/form-data; boundary=…`.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// Appends a text field.
    /// - Parameters:
    ///   - value: The text, sent as UTF-8.
    ///   - name: The field name.
    public mutating func append(_ value: String, name: String) {
        parts.append(Part(name: name, filename: nil, contentType: nil, content: .data(Data(value.utf8))))
    }

    /// Appends a part from bytes in memory.
    /// - Parameters:
    ///   - data: The bytes.
    ///   - name: The field name.
    ///   - filename: The file name to announce, if any.
    ///   - contentType: The part's content type; `application/octet-stream` when `nil`.
    public mutating func append(_ data: Data, name: String, filename: String? = nil, contentType: String? = nil) {
        parts.append(
            Part(
                name: name, filename: filename, contentType: contentType ?? "application/octet-stream",
                content: .data(data)))
    }

    /// Appends a file part, streamed from disk when the request is sent.
    /// - Parameters:
    ///   - url: The local file.
    ///   - name: The field name.
    ///   - filename: The file name to announce; the URL's last path component when `nil`.
    ///   - contentType: The part's content type; `application/octet-stream` when `nil`.
    public mutating func appendFile(_ url: URL, name: String, filename: String? = nil, contentType: String? = nil) {
        parts.append(
            Part(
                name: name, filename: filename ?? url.lastPathComponent,
                contentType: contentType ?? "application/octet-stream", content: .file(url)))
    }
}
