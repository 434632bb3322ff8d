import Foundation
import NetworkingHTTP
import NetworkingCore

/// Where ``CookieBehavior`` keeps cookies (the role of OkHttp's `CookieJar`). ``InMemoryCookieJar`` is the default.
///
/// The behavior decides which cookies are valid (``Cookie/init(_:from:at:)``) and builds the `Cookie` header; a jar
/// stores, replaces, expires and selects. Implementations must be safe to call from any task.
/// ```swift
/// final class KeychainCookieJar: CookieJar {
///     private let memory = InMemoryCookieJar()
///     func save(_ cookies: [Cookie], at now: Date) { memory.save(cookies, at: now); persist(memory.all) }
///     func cookies(for url: URL, at now: Date) -> [Cookie] { memory.cookies(for: url, at: now) }
/// }
/// ```
public protocol CookieJar: Sendable {
    /// Stores `cookies`, each replacing a stored one of the same name, domain and path; an expired one only removes.
    ///
    /// - Parameters:
    ///   - cookies: Cookies received in one response, in order.
    ///   - now: The current date.
    func save(_ cookies: [Cookie], at now: Date)

    /// The unexpired cookies that match `url`, in the order of the `Cookie` header: longer paths first, then older
    /// first.
    ///
    /// - Parameters:
    ///   - url: The URL of the request about to be sent.
    ///   - now: The current date.
    /// - Returns: The cookies to send.
    func cookies(for url: URL, at now: Date) -> [Cookie]
}
