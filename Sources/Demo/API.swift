import Foundation
import Networking

/// The one place the app's client is built: every call in the app goes through the client made here.
///
/// Client-wide behaviors, in the order the chain runs them (it orders them by placement, whatever the array says):
/// 1. the activity counter, outermost, so a call counts once however many attempts it makes;
/// 2. retry, which sends a failed attempt again (it honours `Retry-After`);
/// 3. a circuit breaker, one circuit per endpoint here (per host by default), so a failing endpoint fails fast;
/// 4. authorization, inside retry, so every attempt carries the current token;
/// 5. logging of each attempt as it leaves, `Authorization` included and redacted;
/// 6. an HTTP cache, next to the wire: it decides on the request as sent, token included;
/// 7. coalescing, next to the wire, so identical look-ups in flight share one request.
/// A ``WireTap`` around the transport shows what the cache and coalescing let through to the backend.
///
/// Going live is the backend argument: ``Backend/fixtures(directory:)`` or ``Backend/live(baseURL:)``.
enum API {
    /// The token the demo signs in with. It never appears in the output: the logs redact it.
    static let demoToken = "demo-secret-token-4f7a"

    /// The demo's breaker: opens when half of at least 3 calls to an endpoint failed, for 2 seconds (the defaults,
    /// made for an app's traffic, need 10 calls and break for 5 seconds).
    static let breakerSettings =
        (try? CircuitBreakerSettings(failureRatio: 0.5, minimumThroughput: 3, breakDuration: .seconds(2))) ?? .default

    /// Builds the app's client.
    ///
    /// - Parameters:
    ///   - backend: Fixtures or a live server.
    ///   - console: Receives what the behaviors report.
    ///   - clock: The client's clock, which every behavior waits and measures on (retry waits, the circuit's
    ///     breaks, log durations, cache ages), and the fixture delays; tests pass a `TestClock`.
    static func makeClient(
        backend: Backend, console: DemoConsole, clock: any NetworkClock = SystemClock()
    ) throws -> NetworkClient {
        let tokens = InMemoryTokenStore(demoToken)
        let behavior = CombinedBehavior([
            .activityCounter(store: console.activity) { isBusy in console.activityChanged(isBusy: isBusy) },
            .retry(onRetry: { event in console.retrying(event) }),
            .circuitBreaker(
                breakerSettings, scope: .custom { request, _ in request.method.rawValue + " " + request.path },
                onStateChange: { change in console.circuit(change) }),
            .authorization(.bearer, store: tokens),
            .logging(to: LogSink { line in console.log(line) }, headers: true, eachAttempt: true),
            .httpCache(onEvent: { event in console.cache(event) }),
            .coalescing(table: console.inFlight),
        ])
        let transport = WireTap(base: backend.transport(clock: clock) ?? DefaultTransport.shared, console: console)
        return NetworkClient(
            configuration: .init(baseURL: backend.baseURL, transport: transport, behavior: behavior, clock: clock))
    }
}
