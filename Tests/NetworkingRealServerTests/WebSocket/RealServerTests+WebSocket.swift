import Foundation
import Networking
import NetworkingTestSupport

extension RealServerTests {
    /// Whether this run's transport refuses WebSockets: `URLSessionTransport` on Linux (FoundationNetworking's task
    /// needs a libcurl with WebSocket support, which Debian's is not). There the WebSocket tests assert the refusal.
    static var webSocketsAreRefused: Bool {
        #if os(Linux)
            TestTransport.current == .urlSession
        #else
            false
        #endif
    }
}
