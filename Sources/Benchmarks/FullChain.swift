import Foundation
import Networking

/// The six built-in behaviors the benchmark measures, in the recommended order, with side effects made free:
/// logging to a sink that drops lines, a token store in memory.
enum FullChain {
    static func make() -> CombinedBehavior {
        CombinedBehavior([
            .activityCounter(),
            .logging(to: .discard),
            .retry(),
            .authorization(.bearer, store: InMemoryTokenStore("bench-token")),
            .modifyRequest { request in request.headerFields["X-Bench"] = "bench" },
            .headers(["Accept": "application/json"]),
        ])
    }
}
