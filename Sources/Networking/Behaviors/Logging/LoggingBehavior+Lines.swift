import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension LoggingBehavior {
    /// `[Networking 3F2A9C1B] GET https://…`, with headers and body when enabled.
    func startLine(_ request: URLRequest, shownURL: String, context: RequestContext) -> String {
        var line = "\(tag(context)) \(method(request)) \(shownURL)"
        if logsHeaders { line += headersText(request.allHTTPHeaderFields ?? [:]) }
        line += bodyText(request.httpBody, contentType: request.value(forHTTPHeaderField: "Content-Type"))
        return line
    }

    /// `[Networking 3F2A9C1B] 200 GET https://… in 245 ms, 1024 bytes`, with headers and body when enabled.
    func successLine(
        _ request: URLRequest, shownURL: String, response: HTTPURLResponse, data: Data, elapsed: Duration,
        context: RequestContext
    ) -> String {
        var line = "\(tag(context)) \(response.statusCode) \(method(request)) \(shownURL)"
        line += " in \(milliseconds(elapsed)), \(data.count) bytes"
        if logsHeaders { line += headersText(Self.stringHeaders(response)) }
        line += bodyText(data, contentType: response.value(forHTTPHeaderField: "Content-Type"))
        return line
    }

    /// `failed …: kind: message` or `cancelled … after N ms`.
    func failureLine(
        _ request: URLRequest, shownURL: String, error: any Error, elapsed: Duration, context: RequestContext
    ) -> String {
        let subject = "\(method(request)) \(shownURL)"
        switch error {
        case is CancellationError:
            return "\(tag(context)) cancelled \(subject) after \(milliseconds(elapsed))"
        case let error as NetworkError:
            var line = "\(tag(context)) failed \(subject)"
            if let status = error.statusCode { line += " \(status)" }
            line += " in \(milliseconds(elapsed)): \(error.kind): \(error.message)"
            if let body = error.body { line += ", \(body.count) bytes" }
            if logsHeaders, let response = error.response { line += headersText(Self.stringHeaders(response)) }
            line += bodyText(error.body, contentType: error.response?.value(forHTTPHeaderField: "Content-Type"))
            return line
        default:
            return "\(tag(context)) failed \(subject) in \(milliseconds(elapsed)): \(type(of: error)): \(error)"
        }
    }

    private func tag(_ context: RequestContext) -> String {
        "[Networking \(context.callID.uuidString.prefix(8))]"
    }

    private func method(_ request: URLRequest) -> String {
        request.httpMethod ?? "GET"
    }

    /// The request's URL as the lines show it: redacted, without credentials or fragment.
    func shownURL(_ request: URLRequest) -> String {
        request.url.map(redaction.displayString(for:)) ?? "<no URL>"
    }

    private func milliseconds(_ duration: Duration) -> String {
        "\(Int((duration.seconds * 1000).rounded())) ms"
    }

    /// ` headers: Accept="application/json", Authorization="<redacted>"`, sorted by name, values quoted.
    private func headersText(_ headers: [String: String]) -> String {
        guard !headers.isEmpty else { return " headers: none" }
        let fields = headers.sorted { $0.key.lowercased() < $1.key.lowercased() }.map { name, value in
            let shown = redaction.displayValue(value, forHeader: name)
            let quoted = shown.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return "\(name)=\"\(quoted)\""
        }
        return " headers: " + fields.joined(separator: ", ")
    }

    /// ` body: text… (N bytes)`, or nothing when bodies are off or the body is empty.
    private func bodyText(_ body: Data?, contentType: String?) -> String {
        guard case .upTo(let maximum) = bodies, let body, !body.isEmpty else { return "" }
        let shown = redaction.displayBody(body, contentType: contentType)
        let limit = max(maximum, 0)
        let text = String(decoding: shown.prefix(limit), as: UTF8.self)
        return shown.count > limit ? " body: \(text)… (\(shown.count) bytes)" : " body: \(text)"
    }

    private static func stringHeaders(_ response: HTTPURLResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            headers["\(name)"] = "\(value)"
        }
        return headers
    }

    /// `text` with every control character written as an escape (`\n`, `\r`, `\t`, `\u{1b}`), so that a value
    /// can never start a new log line or drive a terminal.
    static func escapingControlCharacters(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": escaped.append(contentsOf: "\\n".unicodeScalars)
            case "\r": escaped.append(contentsOf: "\\r".unicodeScalars)
            case "\t": escaped.append(contentsOf: "\\t".unicodeScalars)
            case _ where isControl(scalar):
                escaped.append(contentsOf: "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }

    /// C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}
