import Foundation
import NetworkingHTTP
import NetworkingCore

extension FixtureTransport {
    /// The answer to `request`: a `200` to `GET` or `HEAD` gets an `ETag` from its body and becomes a bodiless
    /// `304` when the request's `If-None-Match` lists that tag or `*`.
    package static func answer(_ request: HTTPRequest, status: Int, headers: HTTPFields, body: Data) -> (
        HTTPResponse, Data
    ) {
        var headers = headers
        guard status == 200, request.method == .get || request.method == .head else {
            return (HTTPResponse(status: .init(code: status), headerFields: headers, url: request.url), body)
        }
        if !headers.contains("ETag") { headers["ETag"] = entityTag(of: body) }
        let tag = headers["ETag"] ?? ""
        if let condition = request.headerFields["If-None-Match"], matches(condition, tag: tag) {
            headers[.contentType] = nil
            return (HTTPResponse(status: .notModified, headerFields: headers, url: request.url), Data())
        }
        return (HTTPResponse(status: .ok, headerFields: headers, url: request.url), body)
    }

    /// A strong entity tag for `body`: the first 16 bytes of its SHA-256 in hex, quoted.
    package static func entityTag(of body: Data) -> String {
        "\"" + SHA256.digest(body).prefix(16).map { String(format: "%02x", $0) }.joined() + "\""
    }

    /// Whether an `If-None-Match` value lists `tag` by the weak comparison (RFC 9110 §13.1.2), or is `*`; the list
    /// is read as octets (RFC 9110 §5.6.1).
    package static func matches(_ condition: String, tag: String) -> Bool {
        func opaque(_ text: Substring) -> Substring {
            let trimmed = FieldSyntax.trimmed(text)
            return trimmed.utf8.starts(with: "W/".utf8)
                ? trimmed[trimmed.utf8.index(trimmed.startIndex, offsetBy: 2)...] : trimmed
        }
        let wanted = opaque(Substring(tag))
        return FieldSyntax.listMembers([condition]).contains { member in
            let candidate = opaque(member)
            return FieldSyntax.equals(candidate, "*") || FieldSyntax.equals(candidate, wanted)
        }
    }
}
