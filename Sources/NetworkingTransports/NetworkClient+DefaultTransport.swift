import Foundation
import NetworkingCore

extension NetworkClient {
    /// Creates a client on the platform's default transport (`DefaultTransport/shared`).
    ///
    /// - Parameters:
    ///   - baseURL: The URL request paths are appended to.
    ///   - behavior: The client-wide behavior; it wraps every call's per-request behavior.
    ///
    /// A conflict in `behavior` stops the program here, as `init(configuration:)` says.
    public convenience init(baseURL: URL?, behavior: any RequestBehavior = EmptyBehavior()) {
        self.init(baseURL: baseURL, transport: DefaultTransport.shared, behavior: behavior)
    }
}

extension NetworkClient.Configuration {
    /// Creates a configuration on the platform's default transport (`DefaultTransport/shared`); the other
    /// parameters are those of `init(baseURL:transport:behavior:encoder:decoder:acceptableStatusCodes:timeout:deadline:clock:sensitiveHeaderNames:maximumResponseBodySize:maximumRedirects:followsRedirects:)`.
    public init(
        baseURL: URL?,
        behavior: any RequestBehavior = EmptyBehavior(),
        encoder: JSONEncoder = JSONEncoder(),
        decoder: JSONDecoder = JSONDecoder(),
        acceptableStatusCodes: Set<Int> = Set(200..<300),
        timeout: Duration = .seconds(60),
        deadline: Duration? = .seconds(300),
        clock: any NetworkClock = SystemClock(),
        sensitiveHeaderNames: Set<String> = [],
        maximumResponseBodySize: Int = 32 * 1024 * 1024,
        maximumRedirects: Int = 10,
        followsRedirects: Bool = true
    ) {
        self.init(
            baseURL: baseURL, transport: DefaultTransport.shared, behavior: behavior, encoder: encoder,
            decoder: decoder, acceptableStatusCodes: acceptableStatusCodes, timeout: timeout, deadline: deadline,
            clock: clock, sensitiveHeaderNames: sensitiveHeaderNames,
            maximumResponseBodySize: maximumResponseBodySize, maximumRedirects: maximumRedirects,
            followsRedirects: followsRedirects)
    }
}
