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
        /// Whether the story expects this call to fail (the 503s and the refusal of the circuit breaker step).
        var failsInTheStory = false
    }

    /// The calls of steps 1 and 2, whose countries the results table shows, in the order the demo made them.
    let calls: [Call]
    /// Every call the demo made, in the order they ended.
    let allCalls: [Call]
    /// Requests that reached the backend, as the wire tap saw them: attempts, after the cache and coalescing.
    let requestsSent: Int
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
        /// Look-ups the cache served after a 304, and the 304s that reached the backend for them (coalescing shares
        /// one among identical look-ups).
        var revalidated = 0
        var notModifiedSent = 0
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
            return
                "Cache: \(revalidated) look-ups revalidated by \(notModifiedSent) 304\(notModifiedSent == 1 ? "" : "s") "
                + "from the backend. Coalescing: \(coalescedCallers) callers, \(coalescedRequests) "
                + "request\(coalescedRequests == 1 ? "" : "s"). Circuit: \(phases)."
        }
    }

    /// What went otherwise than the story says: a call that failed where it should be answered, one that was
    /// answered where it should fail, and each check of steps 3 to 5 that did not hold.
    var failures: Int {
        allCalls.filter { ($0.error != nil) != $0.failsInTheStory }.count + extras.unexpected.count
    }

    /// `15 calls (11 answered, 4 failed as the story says), 11 requests sent, 1 retry, 0 unexpected, activity idle`.
    var summary: String {
        func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
        let state = inFlight == 0 ? "idle" : "busy (\(inFlight) in flight)"
        let answered = allCalls.filter { $0.error == nil }.count
        let failedAsTold = allCalls.filter { $0.error != nil && $0.failsInTheStory }.count
        return [
            "\(count(allCalls.count, "call", "calls")) (\(answered) answered, \(failedAsTold) failed as the story says)",
            count(requestsSent, "request sent", "requests sent"), count(retries, "retry", "retries"),
            "\(failures) unexpected", "activity \(state)",
        ]
        .joined(separator: ", ")
    }
}
