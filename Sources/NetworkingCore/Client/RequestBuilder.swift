import Foundation
import NetworkingHTTP

/// Builds the `HTTPRequest` of a call from a ``NetworkRequest``: target, header fields and body, refused before
/// any I/O when anything is wrong. The one place requests are made.
package struct RequestBuilder: Sendable {
    /// A client's base URL, checked once: its scheme, authority and path without trailing slashes, or why it
    /// cannot be used.
    package struct Base: Sendable {
        let scheme: String
        let authority: String
        let path: String
        let problem: String?

        init(_ url: URL) {
            guard let target = RequestTarget(url) else {
                (scheme, authority, path) = ("https", "invalid", "")
                problem = "the base URL: \(RequestTarget.problem(in: url))"
                return
            }
            scheme = target.scheme
            authority = target.authority
            var path = target.path
            if path.contains("?") {
                problem = "the base URL \(url.displayString) has a query; paths are appended to it, so it cannot"
            } else if let reason = HTTPRequest(scheme: target.scheme, authority: target.authority, path: path)
                .invalidReason
            {
                problem = "the base URL: \(reason)"
            } else {
                problem = nil
            }
            while path.hasSuffix("/") { path.removeLast() }
            self.path = path
        }
    }

    package let base: Base?
    package let encoder: JSONEncoder
    /// Lower-cased names of headers that are sensitive in every request of the client.
    package let sensitiveHeaderNames: Set<String>
    /// What a built request says of redirects when its `NetworkRequest` does not: `false` for a client that does not
    /// follow them, so a behavior that follows redirects itself (cookies) sees it; `nil` (the client's default,
    /// followed) otherwise.
    package let defaultFollowsRedirects: Bool?

    package init(
        baseURL: URL?, encoder: JSONEncoder, sensitiveHeaderNames: Set<String>, followsRedirects: Bool = true
    ) {
        self.base = baseURL.map(Base.init)
        self.encoder = encoder
        self.sensitiveHeaderNames = Set(sensitiveHeaderNames.map(HTTPToken.lowercasedASCII))
        self.defaultFollowsRedirects = followsRedirects ? nil : false
    }

    /// The request to send for `request`.
    ///
    /// - Throws: ``NetworkError`` of kind `invalidRequest` (bad URL, method, header, a body on `GET`/`HEAD`) or
    ///   `encoding` (the body could not be encoded).
    package func build<Response>(_ request: NetworkRequest<Response>, name: String) throws(NetworkError) -> HTTPRequest
    {
        func refuse(_ reason: String, _ built: HTTPRequest? = nil) -> NetworkError {
            NetworkError(.invalidRequest, requestName: name, message: "invalid request: \(reason)", builtRequest: built)
        }
        var built: HTTPRequest
        switch request.endpoint {
        case .path(let path):
            guard let base else { throw refuse("the path \"\(path)\" is relative but the client has no base URL") }
            if let problem = base.problem { throw refuse(problem) }
            if let problem = RequestPath.problem(in: path) { throw refuse(problem) }
            // Byte comparisons: the base path is empty or starts with `/`, and `/` is ASCII.
            let slash = UInt8(ascii: "/")
            var joined = base.path
            if let first = path.utf8.first, first != slash { joined += "/" }
            joined += RequestPath.escape(path)
            if joined.utf8.first != slash { joined = "/" + joined }
            built = HTTPRequest(
                method: request.method, trustedScheme: base.scheme, trustedAuthority: base.authority,
                path: RequestPath.appending(request.query, to: joined), headerFields: request.headers,
                followsRedirects: request.followsRedirects ?? defaultFollowsRedirects)
        case .url(let url):
            built = HTTPRequest(method: request.method, url: url, headerFields: request.headers)
            if !request.query.isEmpty { built.path = RequestPath.appending(request.query, to: built.path) }
            if let follows = request.followsRedirects ?? defaultFollowsRedirects { built.followsRedirects = follows }
        }
        if !sensitiveHeaderNames.isEmpty { built.headerFields.declaredSensitiveNames = sensitiveHeaderNames }
        if let reason = built.invalidReason { throw refuse(reason, built) }
        guard let body = request.body else { return built }
        if request.method == .get || request.method == .head {
            throw refuse("a \(request.method.rawValue) request cannot carry a body", built)
        }
        do {
            built.body = try body.httpBody(with: encoder)
        } catch {
            throw NetworkError(
                .encoding, requestName: name, message: "the body could not be encoded: \(error)", builtRequest: built,
                underlyingError: error)
        }
        if let contentType = body.defaultContentType, !built.headerFields.contains(.contentType) {
            built.headerFields[.contentType] = contentType
        }
        return built
    }
}
