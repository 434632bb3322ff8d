import NetworkingHTTP
import NetworkingCore

/// How ``CookieBehavior`` follows redirects.
///
/// ```swift
/// let behavior = CookieBehavior(try CookieSettings(maximumRedirects: 5), jar: jar)
/// ```
public struct CookieSettings: Sendable, Hashable {
    /// The most redirects followed in one call; the one after fails with `transport(.tooManyRedirects)`.
    public let maximumRedirects: Int

    /// The default: 10 redirects, the client's default `maximumRedirects`, so adding cookies changes nothing else.
    public static let `default` = CookieSettings(checked: 10)

    /// Creates settings.
    ///
    /// - Parameter maximumRedirects: The most redirects followed in one call; 10 by default; 0 refuses every one.
    /// - Throws: `BehaviorSettingsError` when `maximumRedirects` is negative.
    public init(maximumRedirects: Int = 10) throws {
        try BehaviorSettingsError.require(maximumRedirects, atLeast: 0, "maximumRedirects", in: "CookieSettings")
        self.maximumRedirects = maximumRedirects
    }

    private init(checked maximumRedirects: Int) {
        self.maximumRedirects = maximumRedirects
    }
}
