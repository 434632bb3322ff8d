import Foundation
import NetworkingHTTP
import NetworkingCore

extension LoggingBehavior {
    /// `[Networking 3F2A9C1B] GET https://…`, with headers and body when enabled. The headers are those this
    /// behavior was handed, `headers before inner behaviors:`: the behaviors inside it (credentials, cookies, the
    /// client's default `Accept`) add theirs later, and the end line shows them as sent.
    func startLine(_ request: HTTPRequest, shownURL: String, context: RequestContext, secrets: [String]) -> String {
        var line = "\(tag(context)) \(request.method.rawValue) \(shownURL)"
        if logsHeaders {
            line += headersText(request.headerFields, "headers before inner behaviors")
            line += trailersText(request.body.trailerFields)
        }
        line += bodyText(request.body.data, contentType: request.headerFields[.contentType], secrets: secrets)
        return line
    }

    /// `[Networking 3F2A9C1B] 200 GET https://… in 245 ms, 1024 bytes`, with headers and body when enabled.
    func successLine(
        _ request: HTTPRequest, shownURL: String, response: HTTPResponse, body: HTTPResponse.Body,
        elapsed: Duration, context: RequestContext, secrets: [String], attempts: [AttemptOutcome] = [],
        note: String? = nil
    ) -> String {
        var line = "\(tag(context)) \(response.status.code) \(request.method.rawValue) \(shownURL)"
        line += " in \(milliseconds(elapsed))"
        if let count = body.data?.count { line += ", \(count) bytes" }
        if body.isStreaming { line += ", streaming" }
        if attempts.count > 1 { line += "," + AttemptOutcome.summary(attempts) }
        if let note { line += " (\(note))" }
        if logsHeaders {
            line += sentHeadersText(context.requestAsSent)
            line += headersText(response.headerFields, "response headers")
            line += trailersText(body.trailerFields)
        }
        line += bodyText(body.data, contentType: response.headerFields[.contentType], secrets: secrets)
        return line
    }

    /// `failed …: kind: message` or `cancelled … after N ms`.
    func failureLine(
        _ request: HTTPRequest, shownURL: String, error: any Error, elapsed: Duration, context: RequestContext,
        secrets: [String], attempts: [AttemptOutcome]
    ) -> String {
        let subject = "\(request.method.rawValue) \(shownURL)"
        switch error {
        case is CancellationError:
            return "\(tag(context)) cancelled \(subject) after \(milliseconds(elapsed))"
        case let error as NetworkError:
            // A 304 to a conditional request is the answer it asked for (an HTTP cache revalidating), not a failure.
            if case .unacceptableStatus(304) = error.kind, let response = error.response,
                request.headerFields.contains(.ifNoneMatch) || request.headerFields.contains(.ifModifiedSince)
            {
                return successLine(
                    request, shownURL: shownURL, response: response, body: .data(error.body ?? Data()),
                    elapsed: elapsed, context: context, secrets: secrets, attempts: attempts, note: "not modified")
            }
            var line = "\(tag(context)) failed \(subject)"
            if let status = error.statusCode { line += " \(status)" }
            line += " in \(milliseconds(elapsed))\(attempts.count > 1 ? "," : "")\(AttemptOutcome.summary(attempts)):"
            line += " \(error.kind): \(error.message)"
            if let body = error.body { line += ", \(body.count) bytes" }
            if logsHeaders { line += sentHeadersText(error.sentRequest ?? context.requestAsSent) }
            if logsHeaders, let response = error.response {
                line += headersText(response.headerFields, "response headers")
            }
            line += bodyText(error.body, contentType: error.response?.headerFields[.contentType], secrets: secrets)
            return line
        default:
            return "\(tag(context)) failed \(subject) in \(milliseconds(elapsed))\(AttemptOutcome.summary(attempts)):"
                + " \(type(of: error)): \(error)"
        }
    }

    /// `[Networking 3F2A9C1B]`, or `[Networking 3F2A9C1B getUser]` when the request names its endpoint.
    func tag(_ context: RequestContext) -> String {
        let id = context.callID.uuidString.prefix(8)
        guard let endpoint = context.metadata[EndpointName.self] else { return "[Networking \(id)]" }
        return "[Networking \(id) \(endpoint)]"
    }

    func milliseconds(_ duration: Duration) -> String {
        "\(Int((duration.seconds * 1000).rounded())) ms"
    }

    /// ` sent headers: …`: the request's headers as they left the client, after every behavior (redacted), or
    /// nothing when no request was sent (a request refused before any I/O, a context a test built).
    private func sentHeadersText(_ sent: HTTPRequest?) -> String {
        guard let sent else { return "" }
        return headersText(sent.headerFields, "sent headers")
    }

    /// ` sent headers: Accept="application/json", Authorization="<redacted>"` (for `label` `sent headers`), sorted
    /// by name, values quoted, names as written.
    private func headersText(_ fields: HTTPFields, _ label: String) -> String {
        guard !fields.isEmpty else { return " \(label): none" }
        let shown = fields.sorted { $0.name < $1.name }.map { field in
            let value = redaction.redacts(field) ? Redaction.placeholder : field.value
            let quoted = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return "\(field.name.rawName)=\"\(quoted)\""
        }
        return " \(label): " + shown.joined(separator: ", ")
    }

    /// ` trailers: X-Checksum="42"`, redacted as header fields are; nothing when there are none.
    func trailersText(_ fields: HTTPFields?) -> String {
        guard let fields, !fields.isEmpty else { return "" }
        return headersText(fields, "trailers")
    }

    /// ` body: text… (N bytes)`, or nothing when bodies are off or the body is empty. A secret of the request that
    /// begins before the cut is replaced whole, so no part of it shows.
    private func bodyText(_ body: Data?, contentType: String?, secrets: [String]) -> String {
        guard case .upTo(let maximum) = bodies, let body, !body.isEmpty else { return "" }
        let shown = redaction.displayBody(body, contentType: contentType)
        let text = Redaction.scrubbedPrefix(of: shown, limit: maximum, secrets: secrets)
        return shown.count > max(maximum, 0) ? " body: \(text)… (\(shown.count) bytes)" : " body: \(text)"
    }
}
