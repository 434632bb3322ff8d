import Foundation

/// An HTTP request as behaviors and transports see it: method, target, header fields and body. A plain value,
/// cheap to copy and to change; checked at every write.
///
/// ```swift
/// var request = HTTPRequest(method: .post, url: URL(string: "https://api.example.com/v1/items")!)
/// request.headerFields[.contentType] = "application/json"
/// request.body = .data(payload)
/// request.path = "/v2/items"
/// ```
///
/// The target is kept as its parts, as it goes on the wire: ``scheme`` (`http` or `https`), ``authority``
/// (host and optional port) and ``path`` (percent-encoded, with its query, without a fragment). ``url`` joins and
/// splits them.
///
/// **Every write is checked**, as in ``HTTPFields``: a method that is not a token, a scheme other than http(s),
/// an authority with user info or a space, a path with a control character or a space: the write is refused,
/// the request keeps its previous value, and ``invalidReason`` says why. The client refuses such a request with
/// `NetworkError` of kind `invalidRequest` before any I/O.
///
/// Coming from `URLRequest`? `init(_:)` converts one, and ``urlRequest`` converts back.
public struct HTTPRequest: Sendable, Equatable, CustomStringConvertible {
    /// Every part of the request but its header fields in one shared immutable box: behaviors, the chain and the
    /// attempt pass the request on many times a call, and a copy then costs one reference for these parts (the
    /// target's strings, the body), not one each. A write replaces the box; they are written rarely. The header
    /// fields, which behaviors write, stay a value of their own, changed in place.
    private struct Parts: Sendable, Equatable {
        var method: HTTPMethod
        var scheme: String
        var authority: String
        var path: String
        var problem: String?
        var body: HTTPBody
        var followsRedirects: Bool?
    }

    /// The box behind ``Parts``; a write replaces it.
    private final class Box: Sendable {
        let parts: Parts
        init(_ parts: Parts) { self.parts = parts }
    }

    private var box: Box

    private var storedMethod: HTTPMethod {
        get { box.parts.method }
        set { update { $0.method = newValue } }
    }
    private var storedScheme: String {
        get { box.parts.scheme }
        set { update { $0.scheme = newValue } }
    }
    private var storedAuthority: String {
        get { box.parts.authority }
        set { update { $0.authority = newValue } }
    }
    private var storedPath: String {
        get { box.parts.path }
        set { update { $0.path = newValue } }
    }
    private var problem: String? {
        get { box.parts.problem }
        set { update { $0.problem = newValue } }
    }

    private mutating func update(_ change: (inout Parts) -> Void) {
        var parts = box.parts
        change(&parts)
        box = Box(parts)
    }

    /// The one body type, for requests as for responses.
    public typealias Body = HTTPBody

    /// The header fields.
    public var headerFields: HTTPFields
    /// The body; ``HTTPBody/empty`` for none.
    public var body: Body {
        get { box.parts.body }
        set { update { $0.body = newValue } }
    }
    /// Whether a redirect answered to this request is followed: `false` returns the 3xx itself, `true` follows it,
    /// `nil` (the default) leaves it to whoever sends the request (the client follows redirects itself, by its
    /// configuration; a transport called directly, by its own). The client sets it from the
    /// `NetworkRequest/followsRedirects` of the request it builds, or to `false` when the client itself does not
    /// follow redirects.
    public var followsRedirects: Bool? {
        get { box.parts.followsRedirects }
        set { update { $0.followsRedirects = newValue } }
    }
    /// Creates a request from its parts.
    ///
    /// - Parameters:
    ///   - method: The method; `GET` by default.
    ///   - scheme: `http` or `https`.
    ///   - authority: The host and optional port, such as `api.example.com:8443`.
    ///   - path: The percent-encoded path and query, such as `/v1/items?page=2`.
    ///   - headerFields: The header fields.
    ///   - body: The body.
    public init(
        method: HTTPMethod = .get, scheme: String, authority: String, path: String,
        headerFields: HTTPFields = HTTPFields(), body: Body = .empty
    ) {
        box = Box(Parts(method: .get, scheme: "https", authority: "", path: "/", body: body))
        self.headerFields = headerFields
        self.method = method
        self.scheme = scheme
        self.authority = authority
        self.path = path
    }

    /// A request whose scheme and authority were checked already (the client's base URL, checked once).
    package init(
        method: HTTPMethod, trustedScheme: String, trustedAuthority: String, path: String, headerFields: HTTPFields,
        followsRedirects: Bool? = nil
    ) {
        if (method == .get || HTTPToken.isToken(method.rawValue)) && RequestTarget.problem(inPath: path) == nil {
            box = Box(
                Parts(
                    method: method, scheme: trustedScheme, authority: trustedAuthority, path: path, body: .empty,
                    followsRedirects: followsRedirects))
            self.headerFields = headerFields
            return
        }
        // A refused part: the checked setters record why, in the order they always have.
        box = Box(
            Parts(
                method: .get, scheme: trustedScheme, authority: trustedAuthority, path: "/", body: .empty,
                followsRedirects: followsRedirects))
        self.headerFields = headerFields
        if method != .get { self.method = method }
        self.path = path
    }

    /// Creates a request to an absolute `http` or `https` URL. Its fragment is not sent; a URL with a user name
    /// or password is refused (see ``invalidReason``): send credentials with a behavior instead.
    ///
    /// - Parameters:
    ///   - method: The method; `GET` by default.
    ///   - url: The target.
    ///   - headerFields: The header fields.
    ///   - body: The body.
    public init(method: HTTPMethod = .get, url: URL, headerFields: HTTPFields = HTTPFields(), body: Body = .empty) {
        self.init(
            method: method, scheme: "https", authority: "invalid", path: "/", headerFields: headerFields, body: body)
        self.url = url
    }

    /// The method. Writing a method that is not an RFC 9110 token is refused.
    public var method: HTTPMethod {
        get { storedMethod }
        set {
            guard HTTPToken.isToken(newValue.rawValue) else {
                refuse(
                    "the method \"\(DisplayText.escapingControlCharacters(newValue.rawValue))\" is not a valid HTTP "
                        + "token")
                return
            }
            storedMethod = newValue
        }
    }

    /// `http` or `https`; another scheme is refused.
    public var scheme: String {
        get { storedScheme }
        set {
            let lowered = HTTPToken.lowercasedASCII(newValue)
            guard lowered == "https" || lowered == "http" else {
                refuse(
                    newValue.isEmpty
                        ? "the URL is not absolute (no http or https scheme)"
                        : "the scheme \"\(DisplayText.escapingControlCharacters(newValue))\" is not supported; only "
                            + "http and https are")
                return
            }
            storedScheme = lowered
        }
    }

    /// The host and optional port, such as `api.example.com` or `127.0.0.1:8080` or `[::1]:8443`. User info
    /// (`user:password@`), spaces, control characters and a port outside 1-65535 are refused.
    public var authority: String {
        get { storedAuthority }
        set {
            if let reason = RequestTarget.problem(inAuthority: newValue) {
                refuse(reason)
                return
            }
            storedAuthority = newValue
        }
    }

    /// The percent-encoded path with its query, such as `/v1/items?page=2`. It must start with `/`; control
    /// characters, spaces and `#` are refused.
    public var path: String {
        get { storedPath }
        set {
            if let reason = RequestTarget.problem(inPath: newValue) {
                refuse(reason)
                return
            }
            storedPath = newValue
        }
    }

    /// The target as a URL; `nil` only when its parts cannot form one. Setting it replaces the scheme, authority
    /// and path, with the same checks; setting `nil` is refused.
    public var url: URL? {
        get { URL(string: "\(storedScheme)://\(storedAuthority)\(storedPath)") }
        set {
            guard let newValue else {
                refuse("the URL was set to nil")
                return
            }
            guard let parts = RequestTarget(newValue) else {
                refuse(RequestTarget.problem(in: newValue))
                return
            }
            // All three parts or none: a refused part leaves the target as it was.
            var checked = self
            checked.problem = nil
            checked.scheme = parts.scheme
            checked.authority = parts.authority
            checked.path = parts.path
            if let reason = checked.problem {
                refuse(reason)
                return
            }
            update { parts in
                parts.scheme = checked.storedScheme
                parts.authority = checked.storedAuthority
                parts.path = checked.storedPath
            }
        }
    }

    /// The path without its query, such as `/v1/items`.
    package var pathWithoutQuery: String {
        guard let mark = storedPath.firstIndex(of: "?") else { return storedPath }
        return String(storedPath[..<mark])
    }

    /// The query items of the path, percent-decoded, in order.
    package var queryItems: [URLQueryItem] {
        guard let mark = storedPath.firstIndex(of: "?") else { return [] }
        var components = URLComponents()
        components.percentEncodedQuery = String(storedPath[storedPath.index(after: mark)...])
        return components.queryItems ?? []
    }

    /// Why this request cannot be sent: the first write that was refused, on the request or its header fields;
    /// `nil` when every write was accepted.
    public var invalidReason: String? {
        problem ?? headerFields.invalidReason
    }

    /// `METHOD scheme://authority/path`, without the query (which may hold secrets).
    public var description: String {
        let bare = storedPath.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return "\(storedMethod.rawValue) \(storedScheme)://\(storedAuthority)\(bare)"
    }

    /// Whether two requests have the same method, target, refusal, header fields, body and redirect choice.
    public static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        (lhs.box === rhs.box || lhs.box.parts == rhs.box.parts) && lhs.headerFields == rhs.headerFields
    }

    /// Records `reason` as why the request cannot be sent, unless an earlier write was refused already.
    package mutating func refuse(_ reason: String) {
        if problem == nil { problem = reason }
    }
}
