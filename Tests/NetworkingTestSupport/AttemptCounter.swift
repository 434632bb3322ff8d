import Foundation
import Networking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A behavior that counts the attempts passing it, for servers that cannot count hits themselves (httpbin).
///
/// It runs at `.outgoing` (inside retries and the cookie behavior's redirect hops): one `beforeSend` per request
/// that leaves; `AttemptCounter(placement: .observation)` counts calls instead.
package struct AttemptCounter: RequestBehavior {
    /// Where it counts; `.outgoing` by default.
    package var placement: BehaviorPlacement = .outgoing

    private struct Counts {
        package var sent = 0
        package var succeeded = 0
        package var failed = 0
        package var statuses: [Int] = []
    }

    private let counts = LockedBox(Counts())

    /// A counter at `placement`.
    package init(placement: BehaviorPlacement = .outgoing) {
        self.placement = placement
    }

    /// Attempts that went on down the chain.
    package var sent: Int { counts.withLock { $0.sent } }
    /// Attempts that came back with an acceptable response.
    package var succeeded: Int { counts.withLock { $0.succeeded } }
    /// Attempts that came back with an error, cancellation included.
    package var failed: Int { counts.withLock { $0.failed } }
    /// The status of each attempt that got a response, in order (from the error for unacceptable ones).
    package var statuses: [Int] { counts.withLock { $0.statuses } }

    package func beforeSend(request: HTTPRequest, context: RequestContext) async {
        counts.withLock { $0.sent += 1 }
    }

    package func afterSuccess(response: HTTPResponse, body: HTTPResponse.Body, context: RequestContext) async {
        counts.withLock {
            $0.succeeded += 1
            $0.statuses.append(response.status.code)
        }
    }

    package func afterFailure(error: any Error, context: RequestContext) async {
        counts.withLock {
            $0.failed += 1
            if let status = (error as? NetworkError)?.statusCode { $0.statuses.append(status) }
        }
    }
}
