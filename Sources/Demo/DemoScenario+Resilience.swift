import Foundation
import Networking

/// The demo's second part: the HTTP cache revalidating, coalescing of identical look-ups, and the circuit breaker
/// opening and closing on a failing endpoint.
extension DemoScenario {
    /// Runs steps 3 to 5 and returns what they showed.
    func runResilienceSteps(backend: Backend) async -> DemoReport.Extras {
        var extras = DemoReport.Extras()

        console.step(
            "3. Look up France again",
            "The HTTP cache kept the first answer with its ETag; it asks the server with If-None-Match, and a 304 "
                + "brings the stored body back.")
        let france = await call(CountriesAPI.country(code: "fr"))
        if let error = france.error { extras.unexpected.append("\(france.name): \(error)") }

        console.step(
            "4. Five screens ask for Japan at once",
            "Coalescing sends identical look-ups in flight once; every caller decodes its own copy.")
        let sentBefore = sentLines(for: "/alpha/jp")
        let japans = await withTaskGroup(of: DemoReport.Call.self) { group in
            for _ in 0..<5 { group.addTask { await call(CountriesAPI.country(code: "jp")) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        extras.coalescedCallers = japans.filter { $0.countries.first?.cca2 == "JP" }.count
        extras.coalescedRequests = sentLines(for: "/alpha/jp") - sentBefore
        extras.unexpected += japans.compactMap { call in call.error.map { "\(call.name): \($0)" } }
        console.line("  5 callers got Japan; requests sent: \(extras.coalescedRequests)")
        extras.revalidated = console.current.cache.filter { $0 == .revalidated }.count
        extras.notModifiedSent = console.current.notModifiedPaths.count

        guard case .fixtures = backend else {
            console.step("5. A failing endpoint", "Shown on the fixture backend only: it needs an endpoint that fails.")
            return extras
        }
        await breakerStep(&extras)
        return extras
    }

    /// Step 5: three 503s open the endpoint's circuit, the next call fails fast, and after the break one probe
    /// closes it again.
    private func breakerStep(_ extras: inout DemoReport.Extras) async {
        console.step(
            "5. Germany's endpoint is down for a moment",
            "Three 503s open its circuit (retries are off for these calls); the next call fails fast without "
                + "being sent; after the 2 s break one probe goes through and closes the circuit.")
        let noRetry = BehaviorOverride.without(RetryBehavior.self)
        for _ in 0..<3 {
            let failed = await call(CountriesAPI.country(code: "de"), behavior: noRetry, failsInTheStory: true)
            if failed.error?.contains("unacceptableStatus(503)") != true {
                extras.unexpected.append("GET /alpha/de should fail with 503: \(failed.error ?? "it succeeded")")
            }
        }
        let sent = sentLines(for: "/alpha/de")
        let refused = await call(CountriesAPI.country(code: "de"), behavior: noRetry, failsInTheStory: true)
        if refused.error?.contains("CircuitBreakerBehavior") == true, sentLines(for: "/alpha/de") == sent {
            console.line("  refused by the open circuit, nothing sent: \(refused.error ?? "")")
        } else {
            extras.unexpected.append("GET /alpha/de should be refused by the open circuit: \(refused.error ?? "sent")")
        }
        try? await clock.sleep(for: API.breakerSettings.breakDuration)
        let probe = await call(CountriesAPI.country(code: "de"), behavior: noRetry)
        if let country = probe.countries.first {
            console.line("  the probe got \(country.name.common); the circuit is closed again")
        } else {
            extras.unexpected.append("the probe of GET /alpha/de failed: \(probe.error ?? "")")
        }
        extras.circuit = console.current.circuit
    }

    /// How many requests to `path` reached the backend, as the wire tap saw them.
    private func sentLines(for path: String) -> Int {
        console.current.sentPaths.filter { $0.hasSuffix(path) }.count
    }
}
