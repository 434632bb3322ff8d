import Foundation
import NetworkingHTTP
import NetworkingCore

/// How ``CoalescingBehavior`` builds its keys.
///
/// ```swift
/// let settings = try CoalescingSettings(ignoredHeaderNames: ["traceparent", "X-Request-ID", "X-Debug-Session"])
/// let behavior = CoalescingBehavior(settings)
/// ```
public struct CoalescingSettings: Sendable, Hashable {
    /// Lower-cased names of header fields left out of the key: fields that never change the answer.
    public let ignoredHeaderNames: Set<String>

    /// The default: ``defaultIgnoredHeaderNames``.
    public static let `default` = CoalescingSettings(checked: defaultIgnoredHeaderNames)

    /// `traceparent`, `tracestate`, `x-request-id`, `x-correlation-id`. They name the caller's call for tracing and
    /// logs, not what the server answers, and they differ on every call: kept in the key, they would give every call
    /// a key of its own and turn coalescing off. The shared call carries the values of the caller that started it.
    public static let defaultIgnoredHeaderNames: Set<String> = [
        "traceparent", "tracestate", "x-request-id", "x-correlation-id",
    ]

    /// Names that choose whose answer it is; ignoring one could hand one user's answer to another.
    static let credentialNames: Set<String> = ["authorization", "proxy-authorization", "cookie"]

    /// Creates settings.
    ///
    /// - Parameter ignoredHeaderNames: Header names, in any case, left out of the key;
    ///   ``defaultIgnoredHeaderNames`` by default. Add a header only if it can never change the answer.
    /// - Throws: `BehaviorSettingsError` when a name is not an HTTP token, or is `Authorization`,
    ///   `Proxy-Authorization` or `Cookie`, which always change whose answer it is.
    public init(ignoredHeaderNames: Set<String> = defaultIgnoredHeaderNames) throws {
        var lowered: Set<String> = []
        for name in ignoredHeaderNames.sorted() {
            guard HTTPToken.isToken(name) else {
                throw BehaviorSettingsError(
                    settings: "CoalescingSettings", setting: "ignoredHeaderNames",
                    value: "\"\(DisplayText.escapingControlCharacters(name))\"",
                    requirement: "every name must be an HTTP token")
            }
            let canonical = HTTPToken.lowercasedASCII(name)
            guard !Self.credentialNames.contains(canonical) else {
                throw BehaviorSettingsError(
                    settings: "CoalescingSettings", setting: "ignoredHeaderNames", value: name,
                    requirement: "a credential header must stay in the key, or one user could get another's answer")
            }
            lowered.insert(canonical)
        }
        self.ignoredHeaderNames = lowered
    }

    private init(checked: Set<String>) {
        ignoredHeaderNames = checked
    }
}
