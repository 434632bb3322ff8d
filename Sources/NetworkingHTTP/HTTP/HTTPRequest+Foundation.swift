import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPRequest {
    /// Converts a Foundation `URLRequest`: method (`GET` when it has none), URL, header fields and body.
    ///
    /// Every part goes through the same checks as any write: a URL that is not absolute `http`/`https`, a header
    /// with CR or LF, or a body stream (not yet supported) is recorded in ``invalidReason``. (On Linux, Foundation's
    /// `URLRequest` itself drops a header value with CR or LF when it is set, so it never arrives here.) Cache policy, timeout
    /// and cookie settings have no equivalent: the client and the transport own them.
    ///
    /// - Parameter urlRequest: The request to convert.
    public init(_ urlRequest: URLRequest) {
        self.init(method: .get, scheme: "https", authority: "invalid", path: "/")
        method = HTTPMethod(rawValue: urlRequest.httpMethod ?? "GET")
        url = urlRequest.url
        headerFields = HTTPFields(urlRequest.allHTTPHeaderFields ?? [:])
        if let data = urlRequest.httpBody {
            body = .data(data)
        } else if urlRequest.httpBodyStream != nil {
            refuse("a URLRequest with a body stream cannot be converted; give the body as data")
        }
    }

    /// The same request as a Foundation `URLRequest`, for code that needs one; `nil` when the target cannot form a
    /// URL. Repeated header fields are joined into one (with `", "`, or `"; "` for `Cookie`), the only form a
    /// `URLRequest` can hold. Bytes become `httpBody`, a file an `httpBodyStream` reading the file; a produced body is
    /// left out.
    public var urlRequest: URLRequest? {
        guard let url else { return nil }
        var request = URLRequest(url: url)
        if method != .get { request.httpMethod = method.rawValue }
        request.allHTTPHeaderFields = headerFields.joinedByName()
        if let data = body.data, !data.isEmpty {
            request.httpBody = data
        } else if let file = body.fileURL {
            request.httpBodyStream = InputStream(url: file)
        }
        return request
    }
}

extension HTTPFields {
    /// One value per name, names as first written: repeated fields joined with `", "` (`"; "` for `Cookie`).
    package func joinedByName() -> [String: String] {
        var byName: [String: String] = [:]
        var written: [String: String] = [:]
        byName.reserveCapacity(count)
        for field in self {
            let key = field.name.canonicalName
            if let rawName = written[key] {
                byName[rawName, default: ""] += (key == "cookie" ? "; " : ", ") + field.value
            } else {
                written[key] = field.name.rawName
                byName[field.name.rawName] = field.value
            }
        }
        return byName
    }
}

extension HTTPResponse {
    /// Converts a Foundation `HTTPURLResponse`: status, header fields (sorted by name, as Foundation keeps them in
    /// a dictionary; `Set-Cookie`, which Foundation joins, cut back into one field per cookie) and URL.
    ///
    /// - Parameter response: The response head to convert.
    public init(_ response: HTTPURLResponse) {
        var fields = HTTPFields()
        let pairs = response.allHeaderFields.map { ("\($0.key)", "\($0.value)") }.sorted { $0.0 < $1.0 }
        fields.reserveCapacity(pairs.count)
        for (name, value) in pairs {
            let name = HTTPField.Name(name)
            // Foundation joins repeated fields with ", "; Set-Cookie fields are cut apart again (RFC 6265 §3), each
            // admitted alone, so a malformed one never takes its neighbours with it.
            let values = name == .setCookie ? SetCookieFieldSplitter.split(joined: value) : [value]
            for value in values { fields.append(HTTPField(name: name, value: value)) }
        }
        self.init(status: Status(code: response.statusCode), headerFields: fields, url: response.url)
    }
}
