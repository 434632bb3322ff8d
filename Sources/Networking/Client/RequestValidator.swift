import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The checks every `URLRequest` passes before it reaches a transport: the client runs them on the request it
/// builds and again on each attempt, after behaviors have changed it, so nothing a behavior adds slips through.
enum RequestValidator {
    /// Header names the client refuses from callers: they control message framing and routing, so a wrong value
    /// could smuggle a second request. The transport sets them itself.
    static let reservedHeaderNames: Set<String> = ["host", "content-length", "transfer-encoding"]

    /// Checks the method, URL and headers of `request`.
    static func validate(_ request: URLRequest) throws(URLBuilder.Refusal) {
        let method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
        guard method.isValidToken else {
            throw URLBuilder.Refusal("the method \"\(method.rawValue)\" is not a valid HTTP token")
        }
        guard let url = request.url, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host?.isEmpty == false
        else {
            throw URLBuilder.Refusal("the URL is not an absolute http or https URL")
        }
        try URLBuilder.rejectControlCharacters(in: url.absoluteString, what: "URL")
        if method == .get || method == .head, let body = request.httpBody, !body.isEmpty {
            throw URLBuilder.Refusal("a \(method.rawValue) request cannot carry a body")
        }
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            try validateHeader(name: name, value: value)
        }
    }

    /// Checks one header: the name must be a token and not reserved; the value must have no control characters
    /// other than horizontal tab. Non-ASCII values are allowed and sent as UTF-8.
    static func validateHeader(name: String, value: String) throws(URLBuilder.Refusal) {
        guard !name.isEmpty, name.utf8.allSatisfy(HTTPToken.isTokenByte) else {
            throw URLBuilder.Refusal("the header name \"\(escaped(name))\" is not a valid HTTP token")
        }
        guard !reservedHeaderNames.contains(name.lowercased()) else {
            throw URLBuilder.Refusal("the header \(name) is set by the transport and cannot be set by callers")
        }
        if value.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) {
            throw URLBuilder.Refusal("the value of header \(name) contains CR, LF, NUL or another control character")
        }
    }

    /// `text` with control characters shown as escapes, for error messages.
    static func escaped(_ text: String) -> String {
        text.unicodeScalars.map {
            $0.value < 0x20 || $0.value == 0x7F ? "\\u{\(String($0.value, radix: 16))}" : String($0)
        }
        .joined()
    }
}
