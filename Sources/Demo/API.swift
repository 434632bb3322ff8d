import Foundation
import Networking

/// The one place the app's client is built: every call in the app goes through the client made here.
///
/// Client-wide behaviors, outermost first:
/// 1. the activity counter, outermost, so a call counts once however many attempts it makes;
/// 2. retry, which sends a failed attempt again (it honours `Retry-After`);
/// 3. authorization, inside retry, so every attempt carries the current token;
/// 4. logging, innermost, so it logs each attempt exactly as sent, `Authorization` header included, and redacted.
///
/// Going live is the backend argument: ``Backend/fixtures(directory:)`` or ``Backend/live(baseURL:)``.
enum API {
    /// The token the demo signs in with. It never appears in the output: the logs redact it.
    static let demoToken = "demo-secret-token-4f7a"

    /// Builds the app's client.
    ///
    /// - Parameters:
    ///   - backend: Fixtures or a live server.
    ///   - console: Receives what the behaviors report.
    ///   - clock: The clock for retry waits, fixture delays and log durations; tests pass a `TestClock`.
    static func makeClient(
        backend: Backend, console: DemoConsole, clock: any NetworkClock = SystemClock()
    ) -> NetworkClient {
        let tokens = InMemoryTokenStore(demoToken)
        let behavior = CombinedBehavior([
            .activityCounter(state: console.activity) { isBusy in console.activityChanged(isBusy: isBusy) },
            .retry(clock: clock, onRetry: { event in console.retrying(event) }),
            .authorization(.bearer, store: tokens),
            .logging(to: LogSink { line in console.log(line) }, headers: true, clock: clock),
        ])
        return NetworkClient(
            configuration: .init(
                baseURL: backend.baseURL, transport: backend.transport(clock: clock), behavior: behavior))
    }
}
