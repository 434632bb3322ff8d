import Foundation
import NetworkingHTTP

/// Several behaviors run as one: ordered by their placements, and within one placement the first outermost.
///
/// In `CombinedBehavior([a, b, c])` of one placement the request passes `a`, then `b`, then `c` on its way to the
/// transport and the outcome returns through `c`, `b`, `a`; behaviors of different placements run in the order of
/// their placements (`BehaviorPlacement`), whatever the order given. Nested combinations flatten: the client runs
/// the leaves.
public struct CombinedBehavior: RequestBehavior {
    /// The behaviors, outermost first.
    public let behaviors: [any RequestBehavior]

    /// Combines `behaviors`, outermost first.
    public init(_ behaviors: [any RequestBehavior]) {
        self.behaviors = behaviors
    }

    /// Runs the request through every behavior in order, then `next`.
    public func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        // The composed handler lives only for this call, so `next` does not really escape.
        try await withoutActuallyEscaping(next) { next in
            try await BehaviorChain(behaviors).handler(context: context, builtRequest: nil, terminal: next)(request)
        }
    }

    /// Every behavior's headers; for the same name, the innermost behavior's value wins.
    public var additionalHeaders: [String: String] {
        behaviors.reduce(into: [:]) { merged, behavior in
            merged.merge(behavior.additionalHeaders) { _, inner in inner }
        }
    }
}

extension RequestBehavior where Self == CombinedBehavior {
    /// Several behaviors run as one: by placement, and within one placement the first outermost.
    public static func combined(_ behaviors: [any RequestBehavior]) -> CombinedBehavior {
        CombinedBehavior(behaviors)
    }
}
