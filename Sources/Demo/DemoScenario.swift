import Foundation
import Networking

/// The demo's calls, made through the app's one client, telling the story on a ``DemoConsole``.
///
/// Kept apart from `main` and returning a ``DemoReport`` so a test can run it against the bundled fixtures.
struct DemoScenario {
    /// The client every call goes through.
    let client: NetworkClient
    /// Where the story goes.
    let console: DemoConsole
    /// The clock the demo's own per-request behavior measures on.
    let clock: any NetworkClock

    /// Runs the calls on `backend` and returns what happened.
    ///
    /// - Parameters:
    ///   - backend: Fixtures or a live server.
    ///   - console: Where the story goes.
    ///   - clock: The clock for retry waits, fixture delays and log durations.
    static func run(backend: Backend, console: DemoConsole, clock: any NetworkClock = SystemClock()) async throws
        -> DemoReport
    {
        let scenario = DemoScenario(
            client: try API.makeClient(backend: backend, console: console, clock: clock), console: console, clock: clock
        )
        return await scenario.run(backend: backend)
    }

    /// Runs the calls and prints the story, the results table and the summary line.
    func run(backend: Backend) async -> DemoReport {
        let style = console.style
        console.line(style.bold("Networking demo: a countries API client, on \(backend.summary)"))
        console.line(
            style.dim(
                "Client-wide behaviors, outermost first: activity counter > retry > circuit breaker > authorization"
                    + " > logging > HTTP cache > coalescing > wire"))

        let retryStory =
            if case .fixtures = backend {
                "The fixture backend answers 503 with Retry-After: 1 first; the retry behavior waits and tries again."
            } else {
                "Should the server answer 503, 429 or a gateway error, the retry behavior waits and tries again."
            }
        console.step("1. List the countries of Europe", retryStory)
        let europe = await call(CountriesAPI.countries(inRegion: "europe"))

        console.step(
            "2. Three look-ups at once",
            "The activity counter stays busy until the last one ends. Per-request behaviors: a stopwatch on each "
                + "call, and the search opts out of retries.")
        async let france = call(CountriesAPI.country(code: "fr"), behavior: stopwatch("detail"))
        async let japan = call(CountriesAPI.country(code: "jp"), behavior: stopwatch("detail"))
        async let peru = call(
            CountriesAPI.search(name: "peru"),
            behavior: CombinedBehavior([.without(RetryBehavior.self), stopwatch("search")]))
        let calls = [europe] + (await [france, japan, peru])

        console.step("Results", "Decoded from JSON into Country values.")
        for line in CountryTable.render(calls) { console.line("  " + line) }
        for call in calls where call.error != nil {
            console.line(style.red("  \(call.name) failed: \(call.error ?? "")"))
        }

        let extras = await runResilienceSteps(backend: backend)
        let record = console.current
        let report = DemoReport(
            calls: calls, allCalls: record.calls, requestsSent: record.sentPaths.count, retries: record.retries.count,
            activity: record.activity, inFlight: console.activity.count, extras: extras)
        console.line()
        for problem in extras.unexpected { console.line(style.red("  unexpected: \(problem)")) }
        console.line(style.dim(extras.summary))
        let summary = "Summary: \(report.summary)"
        console.line(report.failures == 0 ? style.green(summary) : style.red(summary))
        return report
    }

    /// The demo's per-request behavior for `screen`, reporting to the console.
    private func stopwatch(_ screen: String) -> Stopwatch {
        Stopwatch(screen: screen, clock: clock) { [console] line in console.stopwatch(line) }
    }

    /// Sends one request; a failure is recorded in the report rather than ending the demo. Every call is counted
    /// as it ends, with whether the story expects it to fail.
    func call(
        _ request: NetworkRequest<[Country]>, behavior: any RequestBehavior = EmptyBehavior(),
        failsInTheStory: Bool = false
    ) async -> DemoReport.Call {
        let call: DemoReport.Call
        do {
            let countries = try await client.send(request, behavior: behavior)
            call = DemoReport.Call(name: request.name, countries: countries, error: nil)
        } catch {
            call = DemoReport.Call(name: request.name, countries: [], error: "\(error)")
        }
        var counted = call
        counted.failsInTheStory = failsInTheStory
        console.called(counted)
        return call
    }
}
