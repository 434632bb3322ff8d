import Foundation
import NetworkingHTTP
import NetworkingCore

/// Renders an `HTTPRequest` as a `curl` command to paste into a shell, with the same `Redaction` as
/// ``LoggingBehavior``.
///
/// ```
/// curl -X 'POST' -H 'Authorization: <redacted>' -H 'Content-Type: application/json' --data-binary '{"name":"O'\''Brien"}' 'https://api.example.com/v1/users'
/// ```
/// - Every argument is single-quoted, and a `'` inside is written `'\''`, so no header, body or URL can run a
///   shell command or split an argument.
/// - Redacted header and query values become `<redacted>`; the URL's user and password and its fragment are
///   dropped; redacted fields of form bodies are replaced; any other occurrence of a redacted value is scrubbed.
/// - `GET` is implied; `HEAD` is written `--head` (so curl does not wait for a body); other methods use `-X`.
/// - Headers are sorted by name, so the output is stable. A body that is not UTF-8 text is left out and named in
///   a trailing shell comment.
///
/// Defaults: `Redaction/default`. State kept: none.
public struct CurlRenderer: Sendable {
    /// What is never shown.
    public let redaction: Redaction

    /// Creates a renderer.
    ///
    /// - Parameter redaction: What is never shown; `Redaction/default` by default.
    public init(redaction: Redaction = .default) {
        self.redaction = redaction
    }

    /// The `curl` command for `request`, on one line (unless a body contains line breaks).
    ///
    /// - Parameter request: The request to render.
    /// - Returns: The command.
    public func render(_ request: HTTPRequest) -> String {
        var arguments = ["curl"]
        let method = request.method.rawValue
        let body = request.body.data ?? Data()
        switch method {
        case "GET" where request.body.isEmpty: break
        case "HEAD": arguments.append("--head")
        default: arguments += ["-X", Self.quoted(method)]
        }
        for field in request.headerFields.sorted(by: { $0.name < $1.name }) {
            let shown = redaction.redacts(field) ? Redaction.placeholder : field.value
            arguments += ["-H", Self.quoted("\(field.name.rawName): \(shown)")]
        }
        var comment = ""
        if !body.isEmpty {
            let shown = redaction.displayBody(body, contentType: request.headerFields[.contentType])
            if let text = String(data: shown, encoding: .utf8) {
                arguments += ["--data-binary", Self.quoted(text)]
            } else {
                comment = " # binary body of \(body.count) bytes left out"
            }
        }
        if let url = request.body.fileURL {
            arguments += ["--data-binary", Self.quoted("@" + url.path)]
        } else if request.body.data == nil {
            comment = " # produced body (\(request.body.length.map { "\($0) bytes" } ?? "length unknown")) left out"
        }
        arguments.append(Self.quoted(redaction.displayTarget(of: request)))
        return Redaction.scrub(arguments.joined(separator: " ") + comment, secrets: redaction.secrets(in: request))
    }

    /// `text` as one single-quoted shell word: `it's` becomes `'it'\''s'`.
    package static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
