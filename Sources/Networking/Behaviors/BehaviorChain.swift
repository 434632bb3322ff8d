import Foundation

/// The flattened list of behaviors a call runs through, and the folding of them around a terminal handler.
struct BehaviorChain: Sendable {
    /// The leaf behaviors, outermost first, with `EmptyBehavior`s dropped and `CombinedBehavior`s expanded.
    let behaviors: [any RequestBehavior]
    /// An override found among client-wide behaviors, where it can act on nothing: the client refuses its calls.
    let misplacedOverride: BehaviorOverride?

    /// Flattens `behaviors`, outermost first.
    init(_ behaviors: [any RequestBehavior]) {
        var leaves: [any RequestBehavior] = []
        for behavior in behaviors { Self.appendLeaves(of: behavior, to: &leaves) }
        self.misplacedOverride = leaves.lazy.compactMap { $0 as? BehaviorOverride }.first
        self.behaviors = leaves.filter { !($0 is BehaviorOverride) }
    }

    /// The chain of one call: the client-wide chain (flattened once, when the client is built), edited by the
    /// per-request behavior's ``BehaviorOverride``s, followed by the per-request behavior's other leaves.
    init(clientWide: BehaviorChain, perRequest: any RequestBehavior) {
        misplacedOverride = nil
        var outer = clientWide.behaviors
        if perRequest is EmptyBehavior {
            self.behaviors = outer
            return
        }
        var inner: [any RequestBehavior] = []
        Self.appendLeaves(of: perRequest, to: &inner)
        guard inner.contains(where: { $0 is BehaviorOverride }) else {
            self.behaviors = outer + inner
            return
        }
        var rest: [any RequestBehavior] = []
        for leaf in inner {
            guard let override = leaf as? BehaviorOverride else {
                rest.append(leaf)
                continue
            }
            let first = outer.firstIndex(where: override.matches)
            switch override.action {
            case .remove:
                outer.removeAll(where: override.matches)
            case .replace(let replacement):
                // One replacement, in the place of the first match; the other matches go (a family has several).
                if let first {
                    outer[first] = replacement
                    outer = outer.enumerated().filter { $0.offset == first || !override.matches($0.element) }
                        .map(\.element)
                } else {
                    rest.append(replacement)
                }
            }
        }
        self.behaviors = outer + rest
    }

    private static func appendLeaves(of behavior: any RequestBehavior, to leaves: inout [any RequestBehavior]) {
        if behavior is EmptyBehavior { return }
        if let combined = behavior as? CombinedBehavior {
            for inner in combined.behaviors { appendLeaves(of: inner, to: &leaves) }
        } else {
            leaves.append(behavior)
        }
    }

    /// A handler that runs the request through every behavior, outermost first, and then `terminal`.
    ///
    /// - Parameters:
    ///   - context: The call's context.
    ///   - builtRequest: The request as the client built it, for errors; `nil` inside a `CombinedBehavior`.
    ///   - terminal: The innermost handler.
    func handler(context: RequestContext, builtRequest: HTTPRequest?, terminal: @escaping NextHandler) -> NextHandler {
        // One object holds what every level needs, so each level's closure captures one reference rather than a copy
        // of the context and the request.
        guard !behaviors.isEmpty else { return terminal }
        let call = Call(context: context, builtRequest: builtRequest)
        var next = terminal
        for behavior in behaviors.reversed() {
            let inner = next
            next = { request in
                try await Self.run(behavior, request, call, inner)
            }
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
        } catch let error as NetworkError {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch {
            let name = String(describing: type(of: behavior))
            throw NetworkError(
                .behavior(name), requestName: call.context.requestName,
                message: "\(name) failed: \(error)", builtRequest: call.builtRequest, underlyingError: error)
        }
    }
}
