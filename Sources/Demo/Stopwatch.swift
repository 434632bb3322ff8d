import Foundation
import Networking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A per-request behavior written for the demo, to show how small one is: it reports how long a call took on
/// behalf of a screen of the app.
///
/// Passed at the call site (`client.send(request, behavior: Stopwatch(...))`), it runs inside the client-wide
/// behaviors, so it times each attempt that reaches it.
struct Stopwatch: RequestBehavior {
    /// The screen the call is made for, such as `detail`.
    let screen: String
    /// The clock durations are measured on.
    let clock: any NetworkClock
    /// Receives one line per attempt.
    let report: @Sendable (String) -> Void

    func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        let start = clock.now()
        var outcome = "failed"
        defer {
            let elapsed = clock.now() - start
            let milliseconds =
                elapsed.components.seconds * 1_000 + elapsed.components.attoseconds / 1_000_000_000_000_000
            report("\(screen) screen: \(context.requestName) \(outcome) in \(milliseconds) ms")
        }
        let result = try await next(request)
        outcome = "answered"
        return result
    }
}
