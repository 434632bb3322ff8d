import Foundation
import NetworkingHTTP
import NetworkingCore

/// The error of a call a ``RateLimitBehavior`` refused without sending it: its token was further away than the
/// limiter's ``RateLimitSettings/maximumWait`` or the call's deadline.
///
/// The client hands it over as `NetworkError/underlyingError` of a `NetworkError` of kind
/// `behavior("RateLimitBehavior")`.
public struct RateLimitedError: PolicyRejection, Sendable, Hashable, CustomStringConvertible {
    /// The scope key of the bucket, such as `api.example.com:443`.
    public let key: String
    /// How much longer the call would have had to wait for a token (a pause included).
    public let wait: Duration
    /// The wait the call was still allowed: what was left of the maximum wait or of the deadline.
    public let allowed: Duration

    /// Creates the error.
    ///
    /// - Parameters:
    ///   - key: The bucket's scope key.
    ///   - wait: The wait still needed.
    ///   - allowed: The wait still allowed.
    public init(key: String, wait: Duration, allowed: Duration) {
        self.key = key
        self.wait = wait
        self.allowed = allowed
    }

    /// `calls to api.example.com:443 are rate-limited: the next token is 30.0 s away, more than the 5.0 s allowed`.
    public var description: String {
        "calls to \(key) are rate-limited: the next token is \(Self.format(wait)) s away, more than the "
            + "\(Self.format(allowed)) s allowed; the call was not sent"
    }

    private static func format(_ duration: Duration) -> Double {
        (duration.timeInterval * 1000).rounded() / 1000
    }
}

extension RateLimitedError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` reads as well.
    public var errorDescription: String? { description }
}
