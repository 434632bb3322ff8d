/// What one run of the demo produced: each call's decoded countries or error, and what the behaviors did.
struct DemoReport: Sendable {
    /// One call's outcome.
    struct Call: Sendable {
        /// The request's name, such as `GET /alpha/fr`.
        let name: String
        /// The decoded countries; empty when the call failed.
        let countries: [Country]
        /// The error's one-line description when the call failed.
        let error: String?
    }

    /// Every call, in the order the demo made them.
    let calls: [Call]
    /// How many retries the retry behavior made.
    let retries: Int
    /// The activity counter's transitions, `true` for busy.
    let activity: [Bool]
    /// Calls still in flight at the end; 0 means idle.
    let inFlight: Int
    /// What the cache, coalescing and circuit breaker steps showed.
    var extras = Extras()

    /// What steps 3 to 5 showed.
    struct Extras: Sendable {
        /// Look-ups the cache served after a 304.
        var revalidated = 0
        /// Callers of the five simultaneous look-ups that got their country.
        var coalescedCallers = 0
        /// Requests those five look-ups sent.
        var coalescedRequests = 0
        /// The circuit's changes of phase, such as `closed → open`.
        var circuit: [String] = []
        /// What went otherwise than the story says.
        var unexpected: [String] = []

        /// `Cache: 1 revalidated. Coalescing: 5 callers, 1 request. Circuit: closed → open → halfOpen → closed.`
        var summary: String {
            let phases =
                circuit.isEmpty
                ? "not shown"
                : circuit.enumerated()
                    .map { $0.offset == 0 ? $0.element : String($0.element.split(separator: " ").last ?? "") }
                    .joined(separator: " → ")
            return "Cache: \(revalidated) revalidated. Coalescing: \(coalescedCallers) callers, \(coalescedRequests) "
                + "request\(coalescedRequests == 1 ? "" : "s"). Circuit: \(phases)."
        }
    }

    /// How many calls failed, counting what went otherwise than the story says in steps 3 to 5.
    var failures: Int { calls.filter { $0.error != nil }.count + extras.unexpected.count }

    /// `4 calls, 1 retry, 0 failures, activity idle`.
    var summary: String {
        func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
        let state = inFlight == 0 ? "idle" : "busy (\(inFlight) in flight)"
        return [
            count(calls.count, "call", "calls"), count(retries, "retry", "retries"),
            count(failures, "failure", "failures"), "activity \(state)",
        ]
        .joined(separator: ", ")
    }
}
