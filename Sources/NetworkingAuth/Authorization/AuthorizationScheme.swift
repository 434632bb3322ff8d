import Foundation
import NetworkingHTTP
import NetworkingCore

/// How ``AuthorizationBehavior`` turns a token into a header: which header, and what goes before the token.
///
/// | Scheme | Header | Value for token `t` |
/// |---|---|---|
/// | ``bearer`` | `Authorization` | `Bearer t` |
/// | ``basic`` | `Authorization` | `Basic base64(t)`, where `t` is `user:password` |
/// | ``custom(header:prefix:)`` | any | `prefix t`, or `t` alone when `prefix` is `nil` |
///
/// ```swift
/// let apiKey: AuthorizationBehavior = .authorization(.custom(header: "X-API-Key"), store: apiKeyStore)  // X-API-Key: t
/// let token: AuthorizationBehavior =
///     .authorization(.custom(header: "Authorization", prefix: "Token"), store: tokens)  // Authorization: Token t
/// ```
public struct AuthorizationScheme: Sendable, Hashable {
    private enum Encoding: Hashable {
        case verbatim
        case base64
    }

    /// The header the credential goes in, such as `Authorization`.
    public let headerName: HTTPField.Name
    /// The word written before the credential, such as `Bearer`; `nil` for none.
    public let prefix: String?
    private let encoding: Encoding

    /// `Authorization: Bearer <token>` (RFC 6750), for OAuth 2 access tokens and most JSON APIs.
    public static let bearer = AuthorizationScheme(headerName: .authorization, prefix: "Bearer", encoding: .verbatim)

    /// `Authorization: Basic <base64 of token>` (RFC 7617). The store returns `user:password` in clear; the scheme
    /// encodes it as UTF-8, then base64. See ``basicCredential(user:password:)``.
    public static let basic = AuthorizationScheme(headerName: .authorization, prefix: "Basic", encoding: .base64)

    /// Any header, with an optional prefix: `X-API-Key: <token>`, or `Authorization: Token <token>`.
    ///
    /// The behaviors that use a scheme mark its header sensitive, so a custom header is redacted in logs and error
    /// texts and removed when a redirect leaves the origin, like `Authorization`.
    /// - Parameters:
    ///   - header: The header name, sent as written.
    ///   - prefix: A word written before the token and separated from it by a space; `nil` (the default) for none.
    /// - Returns: The scheme.
    public static func custom(header: HTTPField.Name, prefix: String? = nil) -> AuthorizationScheme {
        AuthorizationScheme(headerName: header, prefix: prefix, encoding: .verbatim)
    }

    /// The header value for `token`: the prefix, a space, then the token (base64-encoded for ``basic``).
    ///
    /// - Parameter token: The raw credential from the ``TokenStore``.
    /// - Returns: The complete header value.
    public func headerValue(for token: String) -> String {
        let credential: String
        switch encoding {
        case .verbatim: credential = token
        case .base64: credential = Data(token.utf8).base64EncodedString()
        }
        guard let prefix, !prefix.isEmpty else { return credential }
        return "\(prefix) \(credential)"
    }

    /// The `user:password` token that ``basic`` expects.
    ///
    /// - Parameters:
    ///   - user: The user id. RFC 7617 forbids a colon in it, since the server splits at the first colon.
    ///   - password: The password; it may contain colons.
    /// - Returns: `user:password`.
    /// - Throws: ``InvalidCredential`` when `user` contains a colon.
    public static func basicCredential(user: String, password: String) throws -> String {
        // The byte: a colon followed by a combining mark is no `:` character, but the server splits there.
        guard !user.utf8.contains(UInt8(ascii: ":")) else {
            throw InvalidCredential(reason: "a Basic user id cannot contain a colon")
        }
        return "\(user):\(password)"
    }

    /// A credential that cannot be expressed in the scheme, such as a Basic user id with a colon.
    public struct InvalidCredential: Error, Sendable, Hashable, CustomStringConvertible {
        /// Why the credential was refused. It never contains the credential itself.
        public let reason: String

        /// The reason.
        public var description: String { reason }
    }
}

extension AuthorizationScheme.InvalidCredential: LocalizedError {
    /// The same text as `description`, so `localizedDescription` reads as well.
    public var errorDescription: String? { description }
}
