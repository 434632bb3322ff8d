import NetworkingHTTP
import NetworkingCore

/// The `SameSite` enforcement of a cookie, as the current draft of RFC 6265bis (§5.6.7, "The SameSite Attribute")
/// parses it.
///
/// ```swift
/// SetCookie.parse("a=1; SameSite=strict")?.sameSite   // .strict: the value is matched case-insensitively
/// SetCookie.parse("a=1; SameSite=bogus")?.sameSite    // .default: an unknown value
/// SetCookie.parse("a=1")?.sameSite                    // .default: no attribute
/// ```
///
/// An HTTP client has no browsing context: every request it sends is a same-site, top-level one, so the value
/// changes nothing about where the cookie goes; it is kept so that a ``CookieJar`` can store it and a caller can read
/// it.
public enum CookieSameSite: String, Sendable, Hashable, CaseIterable {
    /// `SameSite=Strict`.
    case strict = "Strict"
    /// `SameSite=Lax`.
    case lax = "Lax"
    /// `SameSite=None`.
    case none = "None"
    /// No `SameSite` attribute, or one whose value is none of the three above.
    case `default` = "Default"

    /// The enforcement an attribute value names: `Strict`, `Lax` or `None` in any case, else `default`.
    ///
    /// - Parameter value: A `SameSite` attribute value, already trimmed.
    /// - Returns: The enforcement.
    public init(attributeValue value: String) {
        switch FieldSyntax.token(value) {
        case "strict": self = .strict
        case "lax": self = .lax
        case "none": self = .none
        default: self = .default
        }
    }
}
