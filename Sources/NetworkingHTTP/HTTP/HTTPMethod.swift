/// An HTTP request method such as `GET` or `POST`.
///
/// A `RawRepresentable` struct rather than an enum, so extension methods (`PROPFIND`, `QUERY`) need no library
/// change. Any string can be written, but `NetworkClient` refuses a method that is not an RFC 9110 token before
/// any I/O, with a `NetworkError` of kind `NetworkError/Kind/invalidRequest`.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method as sent on the request line, for example `"GET"`.
    public let rawValue: String

    /// Creates a method from its name as sent on the wire. Names are case-sensitive (RFC 9110 §9.1).
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates a method from a string literal, so `"PROPFIND"` can be written where an `HTTPMethod` is expected.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// The method name.
    public var description: String { rawValue }

    /// `GET`: read a resource. Safe and idempotent.
    public static let get: HTTPMethod = "GET"
    /// `HEAD`: like `GET` without the body. Safe and idempotent.
    public static let head: HTTPMethod = "HEAD"
    /// `POST`: submit data. Neither safe nor idempotent.
    public static let post: HTTPMethod = "POST"
    /// `PUT`: replace a resource. Idempotent.
    public static let put: HTTPMethod = "PUT"
    /// `PATCH`: change part of a resource. Not idempotent.
    public static let patch: HTTPMethod = "PATCH"
    /// `DELETE`: remove a resource. Idempotent.
    public static let delete: HTTPMethod = "DELETE"
    /// `OPTIONS`: ask what the server allows. Safe and idempotent.
    public static let options: HTTPMethod = "OPTIONS"
    /// `TRACE`: loop the request back. Safe and idempotent.
    public static let trace: HTTPMethod = "TRACE"

    /// Whether RFC 9110 §9.2.2 defines the method as idempotent: sending it twice has the effect of sending it once.
    public var isIdempotent: Bool {
        switch self {
        case .get, .head, .put, .delete, .options, .trace: true
        default: false
        }
    }

    /// Whether the method is an RFC 9110 token: one or more of the characters allowed in a method name.
    public var isValidToken: Bool {
        !rawValue.isEmpty && rawValue.utf8.allSatisfy(HTTPToken.isTokenByte)
    }
}
