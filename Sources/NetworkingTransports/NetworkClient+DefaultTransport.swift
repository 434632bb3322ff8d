import Foundation
import NetworkingCore

extension NetworkClient {
    /// Creates a client on the platform's default transport (`DefaultTransport/shared`).
    ///
    /// - Parameters:
    ///   - baseURL: The URL request paths are appended to.
    ///   - behavior: The client-wide behavior; it wraps every call's per-request behavior.
    ///   - file: The file a conflict is reported at: the caller's, by default.
    ///   - line: The line a conflict is reported at: the caller's, by default.
    ///
    /// A conflict in `behavior` stops the program here, at the caller's line, as `init(configuration:file:line:)`
    /// says.
    public convenience init(
        baseURL: URL?, behavior: any RequestBehavior = EmptyBehavior(), file: StaticString = #fileID,
        line: UInt = #line
    ) {
        self.init(baseURL: baseURL, transport: DefaultTransport.shared, behavior: behavior, file: file, line: line)
    }

    /// Creates a client on the platform's default transport: 1.0.0's initializer, kept for compatibility. A call
    /// written `NetworkClient(baseURL:behavior:)` resolves to `init(baseURL:behavior:file:line:)`, which reports a
    /// conflict at the caller's line.
    ///
    /// - Parameters:
    ///   - baseURL: The URL request paths are appended to.
    ///   - behavior: The client-wide behavior; it wraps every call's per-request behavior.
    @_disfavoredOverload
    public convenience init(baseURL: URL?, behavior: any RequestBehavior = EmptyBehavior()) {
        self.init(baseURL: baseURL, behavior: behavior, file: #fileID, line: #line)
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
