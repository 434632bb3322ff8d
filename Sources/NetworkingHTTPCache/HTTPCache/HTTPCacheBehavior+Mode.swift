import Foundation
import NetworkingHTTP
import NetworkingCore

extension HTTPCacheBehavior {
    /// Whose cache it is: one user's (`private`, the default), or many users' (``shared``). RFC 9111 §3.5.
    ///
    /// | | `private` (an app: one user, or one store per user) | `shared` (a server serving many users) |
    /// |---|---|---|
    /// | A request with a credential | Stored and served **apart per credential**: the key holds a SHA-256 digest of every sensitive field (`Authorization`, `Cookie`, `Proxy-Authorization`, any field marked sensitive), so a response is only ever served to a request with the same credentials | Not stored unless the response says `public`, `must-revalidate` or `s-maxage`; a stored one may be served to anyone, as the server allowed |
    /// | `Cache-Control: private` | Stored | Never stored |
    /// | `s-maxage` | Ignored | Replaces `max-age` |
    /// | `Set-Cookie` in the response | Stored | Never stored (stricter than the RFC, on purpose) |
    ///
    /// Either way one user's answer never reaches another: a private cache keeps credentials apart, a shared one
    /// stores only what the server declared shareable. A server app that serves many users through one client
    /// wants ``shared``: it stores only answers meant for everyone, while `private` would keep a copy per user.
    public enum Mode: Sendable, Hashable {
        /// One user's cache; responses to requests with credentials are kept apart per credential.
        case `private`
        /// A cache shared between users: RFC 9111's rules for shared caches.
        case shared
    }

    /// The storage key of `request`: its URL with the query, scheme and authority lower-cased; in a private cache
    /// followed by a digest of its credentials when it carries any, so each credential has entries of its own. The
    /// digest, not the credential, is what a store (a disk store too) ever sees.
    ///
    /// - Parameters:
    ///   - request: The request as sent.
    ///   - mode: The cache's mode.
    /// - Returns: The key.
    static func key(of request: HTTPRequest, mode: Mode) -> String {
        let url = key(of: request)
        guard mode == .private else { return url }
        let credentials = request.headerFields.filter(\.isSensitive)
        guard !credentials.isEmpty else { return url }
        var text = ""
        for field in credentials.sorted(by: { $0.name.canonicalName < $1.name.canonicalName }) {
            text += field.name.canonicalName + ":" + field.value + "\n"
        }
        let digest = SHA256.digest(Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
        return url + " credentials=" + digest
    }
}
