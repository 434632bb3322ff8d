import Foundation
import NetworkingHTTP
import NetworkingCore

/// A behavior that records each hook it receives as `"<name>.<hook>"` in a ``HookTrace``, to test chain order and
/// hook pairing.
///
/// Events: `name.modify`, `name.beforeSend`, `name.afterSuccess(<status>)`, `name.afterFailure(<error>)`, where
/// `<error>` is `cancelled`, a `NetworkError` kind such as `unacceptableStatus(500)`, or the error's type name.
public struct HookTraceBehavior: RequestBehavior {
    /// The name written before each event.
    public let name: String
    /// Where events go.
    public let log: HookTrace
    /// Headers this behavior adds.
    public let additionalHeaders: [String: String]
    /// Where it runs in the chain; `BehaviorPlacement/modification` by default, like any behavior of your own.
    public let placement: BehaviorPlacement

    /// Creates a tracing behavior.
    ///
    /// - Parameters:
    ///   - name: The name written before each event.
    ///   - log: Where events go.
    ///   - additionalHeaders: Headers to add, to test merge precedence.
    ///   - placement: Where it runs in the chain; `BehaviorPlacement/modification` by default.
    public init(
        _ name: String, log: HookTrace, additionalHeaders: [String: String] = [:],
        placement: BehaviorPlacement = .modification
    ) {
        self.name = name
        self.log = log
        self.additionalHeaders = additionalHeaders
        self.placement = placement
    }

    /// Records `modify` and returns the request unchanged.
    public func modify(request: HTTPRequest, context: RequestContext) async throws -> HTTPRequest {
        log.append("\(name).modify")
        return request
    }

    /// Records `beforeSend`.
    public func beforeSend(request: HTTPRequest, context: RequestContext) async {
        log.append("\(name).beforeSend")
    }

    /// Records `afterSuccess(<status>)`.
    public func afterSuccess(response: HTTPResponse, body: HTTPResponse.Body, context: RequestContext) async {
        log.append("\(name).afterSuccess(\(response.status.code))")
    }

    /// Records `afterFailure(<error>)`.
    public func afterFailure(error: any Error, context: RequestContext) async {
        let label: String
        switch error {
        case is CancellationError: label = "cancelled"
        case let error as NetworkError: label = "\(error.kind)"
        default: label = "\(type(of: error))"
        }
        log.append("\(name).afterFailure(\(label))")
    }
}
