import Foundation
import NetworkingHTTP

extension RequestContext {
    /// How the caller receives the response: what a behavior that keeps or shares bodies must know.
    public enum ResponseForm: Sendable, Hashable {
        /// The whole body in memory: ``NetworkClient/send(_:behavior:)`` and ``NetworkClient/response(for:behavior:)``.
        case buffered
        /// The body as a stream read once by one reader: `NetworkClient/stream(_:behavior:)` and
        /// `NetworkClient/events(_:behavior:clock:maximumReconnections:)`.
        case stream
        /// The body written to a file: `NetworkClient/download(_:to:maximumSize:behavior:)`.
        case download
    }
}
