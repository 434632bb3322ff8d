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

    /// How many calls failed.
    var failures: Int { calls.filter { $0.error != nil }.count }

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
