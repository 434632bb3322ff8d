/// Adds fixed headers to every request: `.headers(["Accept": "application/json", "API-Version": "2"])`.
///
/// The headers go through ``RequestBehavior/additionalHeaders``, so the chain's precedence applies: a header the
/// ``NetworkRequest`` sets itself is never replaced, and an inner behavior's value replaces an outer one's. Values
/// are checked by the client before sending (CR, LF and other control characters fail with kind
/// `invalidRequest`). Names compare case-insensitively: when the dictionary gives one name in several cases, the
/// entry whose name sorts last (`x-id` after `X-ID`) is kept, so the result never depends on dictionary order.
///
/// Defaults: none. State kept: none.
public struct HeadersBehavior: RequestBehavior {
    /// The headers added, one entry per case-insensitive name.
    public let additionalHeaders: [String: String]

    /// Creates the behavior.
    ///
    /// - Parameter headers: The headers to add to every request.
    public init(_ headers: [String: String]) {
        var byName: [String: (name: String, value: String)] = [:]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            byName[name.lowercased()] = (name, value)
        }
        additionalHeaders = Dictionary(uniqueKeysWithValues: byName.values.map { ($0.name, $0.value) })
    }
}

extension RequestBehavior where Self == HeadersBehavior {
    /// Adds fixed headers to every request, never replacing one the request set itself.
    ///
    /// - Parameter headers: The headers to add.
    /// - Returns: The behavior.
    public static func headers(_ headers: [String: String]) -> HeadersBehavior {
        HeadersBehavior(headers)
    }
}
