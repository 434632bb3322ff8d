import Testing
import NetworkingTestSupport

/// The parent of every suite that talks to a real server (the fault server and httpbin). It runs them one test at
/// a time: tests that measure stalls, sub-second limits and cancellation must not compete for the two cores with
/// the 1,000-call stress tests or a libcurl spinning on a dead connection. Unit tests still run in parallel.
///
/// On iOS, tvOS and watchOS, which cannot start the servers (no `Process`), the suite is disabled and says so; on
/// macOS and Linux it runs, and a server that cannot start fails its tests.
@Suite(
    .serialized,
    .enabled(if: TestServers.canStartServers, "the test servers need Process: run this suite on macOS or Linux"))
enum RealServerTests {}
