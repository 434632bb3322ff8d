import Foundation
import Networking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A behavior that counts the attempts passing it, for servers that cannot count hits themselves (httpbin).
///
/// It runs at `.outgoing` (inside retries and the cookie behavior's redirect hops): one `beforeSend` per request
/// that leaves; `AttemptCounter(placement: .observation)` counts calls instead.
struct AttemptCounter: RequestBehavior {
    /// Where it counts; `.outgoing` by default.
    var placement: BehaviorPlacement = .outgoing

    private struct Counts {
        var sent = 0
        var succeeded = 0
        var failed = 0
        var statuses: [Int] = []
    }

    private let counts = LockedBox(Counts())

    /// Attempts that went on down the chain.
    var sent: Int { counts.withLock { $0.sent } }
    /// Attempts that came back with an acceptable response.
    var succeeded: Int { counts.withLock { $0.succeeded } }
    /// Attempts that came back with an error, cancellation included.
    var failed: Int { counts.withLock { $0.failed } }
    /// The status of each attempt that got a response, in order (from the error for unacceptable ones).
    var statuses: [Int] { counts.withLock { $0.statuses } }

    func beforeSend(request: HTTPRequest, context: RequestContext) async {
        counts.withLock { $0.sent += 1 }
    }

    func afterSuccess(response: HTTPResponse, body: HTTPResponse.Body, context: RequestContext) async {
        counts.withLock {
            $0.succeeded += 1
            $0.statuses.append(response.status.code)
        }
    }

    func afterFailure(error: any Error, context: RequestContext) async {
        counts.withLock {
            $0.failed += 1
            if let status = (error as? NetworkError)?.statusCode { $0.statuses.append(status) }
        }
    }
}
