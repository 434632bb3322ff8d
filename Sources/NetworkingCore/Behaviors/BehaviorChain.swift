import Foundation
import NetworkingHTTP

/// The flattened list of behaviors a call runs through, ordered by ``BehaviorPlacement``, and the folding of them
/// around a terminal handler.
package struct BehaviorChain: Sendable {
    /// The leaf behaviors, outermost first: `EmptyBehavior`s dropped, `CombinedBehavior`s expanded, sorted by
    /// placement (the order given kept within a placement).
    package let behaviors: [any RequestBehavior]
    /// The behaviors as the handler nests them, outermost first: each on its own, but for a run of request
    /// rewriters (``RequestRewritingBehavior``) outside the wire stage, which share one level. Found once, with the
    /// chain.
    private let levels: [Level]
    /// What makes the chain unusable, found when it is built: the client refuses to be built with it.
    package let conflict: BehaviorConflictError?
    /// Whether a behavior of the wire stage (a cache, coalescing) is in the chain.
    package var hasWireStage: Bool { behaviors.last?.placement.stage == .wire }
    /// Whether a behavior at `BehaviorPlacement/cache` is in the chain: found among the wire stage, at its end.
    package var hasCache: Bool {
        behaviors.reversed().prefix { $0.placement.stage == .wire }.contains { $0.placement == .cache }
    }

    /// Flattens `behaviors` and orders them by placement.
    package init(_ behaviors: [any RequestBehavior]) {
        var leaves: [any RequestBehavior] = []
        for behavior in behaviors { Self.appendLeaves(of: behavior, to: &leaves) }
        let behaviors = Self.ordered(leaves.filter { !($0 is BehaviorOverride) })
        self.behaviors = behaviors
        self.levels = Self.levels(of: behaviors)
        if let override = leaves.lazy.compactMap({ $0 as? BehaviorOverride }).first {
            self.conflict = BehaviorConflictError(.overrideOutsideCall(override.subject))
        } else {
            self.conflict = Self.duplicate(in: behaviors)
        }
    }

    /// The first exclusive placement held by two behaviors of the ordered list `behaviors`, as an error.
    private static func duplicate(in behaviors: [any RequestBehavior]) -> BehaviorConflictError? {
        var index = behaviors.startIndex
        while index < behaviors.endIndex {
            let placement = behaviors[index].placement
            let end = behaviors[index...].firstIndex { $0.placement != placement } ?? behaviors.endIndex
            if placement.isExclusive, end - index > 1 {
                let names = behaviors[index..<end].map { String(describing: type(of: $0)) }
                return BehaviorConflictError(.duplicate(placement, names))
            }
            index = end
        }
        return nil
    }

    /// The chain of one call: the client-wide chain (flattened and ordered once, when the client is built), edited
    /// by the per-request behavior's ``BehaviorOverride``s, merged with the per-request behavior's other leaves by
    /// placement. Within one placement, client-wide behaviors run outside per-request ones.
    /// A per-request behavior of an exclusive placement takes the client-wide one's place; two of one exclusive
    /// placement in the per-request behavior itself leave the conflict in ``conflict``.
    package init(clientWide: BehaviorChain, perRequest: any RequestBehavior) {
        var outer = clientWide.behaviors
        // The common case (no per-request behavior) by a type comparison, not a dynamic cast.
        if type(of: perRequest) == EmptyBehavior.self {
            self.behaviors = outer
            self.levels = clientWide.levels
            self.conflict = nil
            return
        }
        var inner: [any RequestBehavior] = []
        Self.appendLeaves(of: perRequest, to: &inner)
        var rest: [any RequestBehavior] = []
        for leaf in inner {
            guard let override = leaf as? BehaviorOverride else {
                rest.append(leaf)
                continue
            }
            switch override.action {
            case .remove:
                outer.removeAll(where: override.matches)
            case .replace(let replacement):
                // One replacement, in the place of the first match; the other matches go (a family has several).
                if let first = outer.firstIndex(where: override.matches) {
                    outer[first] = replacement
                    outer = outer.enumerated().filter { $0.offset == first || !override.matches($0.element) }
                        .map(\.element)
                } else {
                    rest.append(replacement)
                }
            }
        }
        let own = Self.ordered(rest)
        self.conflict = Self.duplicate(in: own)
        let taken = Set(own.lazy.map(\.placement).filter(\.isExclusive))
        if !taken.isEmpty { outer.removeAll { taken.contains($0.placement) } }
        let behaviors = Self.merge(Self.ordered(outer), own)
        self.behaviors = behaviors
        self.levels = Self.levels(of: behaviors)
    }

    /// One level of the nested handler.
    private enum Level {
        case one(any RequestBehavior)
        /// Request rewriters in a row, outermost first; never empty.
        case rewriters([any RequestRewritingBehavior])

        var stage: BehaviorPlacement.Stage {
            switch self {
            case .one(let behavior): behavior.placement.stage
            case .rewriters(let run): run[0].placement.stage
            }
        }
    }

    /// The levels of `behaviors` (outermost first): consecutive rewriters outside the wire stage share one.
    private static func levels(of behaviors: [any RequestBehavior]) -> [Level] {
        var levels: [Level] = []
        var run: [any RequestRewritingBehavior] = []
        for behavior in behaviors {
            if let rewriter = behavior as? any RequestRewritingBehavior, behavior.placement.stage != .wire {
                run.append(rewriter)
                continue
            }
            if !run.isEmpty { levels.append(run.count == 1 ? .one(run[0]) : .rewriters(run)) }
            run = []
            levels.append(.one(behavior))
        }
        if !run.isEmpty { levels.append(run.count == 1 ? .one(run[0]) : .rewriters(run)) }
        return levels
    }

    private static func appendLeaves(of behavior: any RequestBehavior, to leaves: inout [any RequestBehavior]) {
        if behavior is EmptyBehavior { return }
        if let combined = behavior as? CombinedBehavior {
            for inner in combined.behaviors { appendLeaves(of: inner, to: &leaves) }
        } else {
            leaves.append(behavior)
        }
    }

    /// `leaves` sorted by placement, stably: behaviors of one placement keep their order.
    private static func ordered(_ leaves: [any RequestBehavior]) -> [any RequestBehavior] {
        guard leaves.count > 1 else { return leaves }
        let placements = leaves.map(\.placement)
        if zip(placements, placements.dropFirst()).allSatisfy({ $0 <= $1 }) { return leaves }
        return leaves.indices.sorted { lhs, rhs in
            placements[lhs] == placements[rhs] ? lhs < rhs : placements[lhs] < placements[rhs]
        }.map { leaves[$0] }
    }

    /// Two ordered lists as one, `outer`'s behaviors before `inner`'s of the same placement.
    private static func merge(_ outer: [any RequestBehavior], _ inner: [any RequestBehavior]) -> [any RequestBehavior] {
        guard !outer.isEmpty else { return inner }
        guard !inner.isEmpty else { return outer }
        var merged: [any RequestBehavior] = []
        merged.reserveCapacity(outer.count + inner.count)
        var (i, j) = (0, 0)
        while i < outer.count, j < inner.count {
            if outer[i].placement <= inner[j].placement {
                merged.append(outer[i])
                i += 1
            } else {
                merged.append(inner[j])
                j += 1
            }
        }
        merged.append(contentsOf: outer[i...])
        merged.append(contentsOf: inner[j...])
        return merged
    }

    /// A handler that runs the request through every behavior, outermost first, and then `terminal`.
    ///
    /// - Parameters:
    ///   - context: The call's context.
    ///   - builtRequest: The request as the client built it, for errors; `nil` inside a `CombinedBehavior`.
    ///   - beforeWire: Applied to the request just before the first behavior of the wire stage, so a cache or
    ///     coalescing decides on the request exactly as it will be sent; `nil` inside a `CombinedBehavior`.
    ///   - terminal: The innermost handler.
    package func handler(
        context: RequestContext, builtRequest: HTTPRequest?,
        beforeWire: (@Sendable (HTTPRequest) throws -> HTTPRequest)? = nil,
        terminal: @escaping NextHandler
    ) -> NextHandler {
        // One object holds what every level needs, so each level's closure captures one reference rather than a copy
        // of the context and the request.
        guard !levels.isEmpty else { return terminal }
        let call = Call(context: context, builtRequest: builtRequest)
        var next = terminal
        var wireStarted = false
        for level in levels.reversed() {
            let stage = level.stage
            if let beforeWire, wireStarted, stage != .wire {
                let inner = next
                next = { request in try await inner(try beforeWire(request)) }
                wireStarted = false
            }
            if stage == .wire { wireStarted = true }
            let inner = next
            switch level {
            case .one(let behavior):
                next = { request in
                    try await Self.run(behavior, request, call, inner)
                }
            case .rewriters(let run):
                next = { request in
                    try await Self.rewrite(request, through: run, call, inner)
                }
            }
        }
        if let beforeWire, wireStarted {
            let inner = next
            next = { request in try await inner(try beforeWire(request)) }
        }
        return next
    }

    /// What every level of one call's chain shares.
    private final class Call: Sendable {
        let context: RequestContext
        let builtRequest: HTTPRequest?

        init(context: RequestContext, builtRequest: HTTPRequest?) {
            self.context = context
            self.builtRequest = builtRequest
        }
    }

    /// Runs one behavior; an error it throws of its own becomes a ``NetworkError`` naming the behavior. Inlined
    /// into each level's closure, so a level costs one async frame, not two.
    @inline(__always)
    private static func run(
        _ behavior: any RequestBehavior,
        _ request: HTTPRequest,
        _ call: Call,
        _ next: @escaping NextHandler
    ) async throws -> (HTTPResponse, HTTPResponse.Body) {
        do {
            return try await behavior.intercept(request, context: call.context, next: next)
        } catch {
            throw attributed(error, to: behavior, call)
        }
    }

    /// Runs a level of request rewriters: each rewrites the request in turn, then the request goes on; what each one
    /// throws is attributed to it, as its own level would.
    private static func rewrite(
        _ request: HTTPRequest,
        through run: [any RequestRewritingBehavior],
        _ call: Call,
        _ next: @escaping NextHandler
    ) async throws -> (HTTPResponse, HTTPResponse.Body) {
        var request = request
        for behavior in run {
            do {
                try await behavior.rewrite(&request, context: call.context)
            } catch {
                throw attributed(error, to: behavior, call)
            }
        }
        do {
            return try await next(request)
        } catch {
            throw attributed(error, to: run[run.count - 1], call)
        }
    }

    /// `error` as the call sees it: a ``NetworkError`` or a cancellation as thrown; any other error a behavior
    /// threw of its own becomes a ``NetworkError`` naming the behavior. Out of line, so that each level's async
    /// frame (alive for the whole call) holds none of this.
    @inline(never)
    private static func attributed(_ error: any Error, to behavior: any RequestBehavior, _ call: Call) -> any Error {
        if error is NetworkError || error is CancellationError { return error }
        let name = String(describing: type(of: behavior))
        return NetworkError(
            .behavior(name), requestName: call.context.requestName,
            message: "\(name) failed: \(error)", builtRequest: call.builtRequest, underlyingError: error)
    }
}
