import NetworkingHTTP

/// The response type of a request whose answer has no body worth reading (204, 205, `HEAD`, or a body to ignore).
///
/// `NetworkRequest<EmptyResponse>` and `NetworkRequest<Void>` both skip decoding entirely, so an empty body never
/// causes an "invalid JSON" error.
public struct EmptyResponse: Hashable, Sendable, Codable {
    /// Creates the empty value.
    public init() {}
}
