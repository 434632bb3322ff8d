import Foundation
import Networking
import NetworkingTesting
import Testing

@testable import Demo
import NetworkingTestSupport

@Suite struct DemoTests {
    /// Runs the demo's calls on `backend` in virtual time, capturing its output.
    private func runDemo(on backend: Backend = .bundledFixtures) async throws -> (DemoReport, [String], TestClock) {
        let output = LockedBox<[String]>([])
        let console = DemoConsole(style: .plain) { line in output.withLock { $0.append(line) } }
        let clock = TestClock(mode: .automatic)
        let report = try await DemoScenario.run(backend: backend, console: console, clock: clock)
        return (report, output.current, clock)
    }

    @Test func callsOnTheBundledFixturesDecodeTheExpectedCountries() async throws {
        // When
        let (report, _, _) = try await runDemo()

        // Then
        #expect(report.calls.map(\.name) == ["GET /region/europe", "GET /alpha/fr", "GET /alpha/jp", "GET /name/peru"])
        #expect(report.calls.allSatisfy { $0.error == nil })
        #expect(report.calls[0].countries.map(\.cca2) == ["FR", "DE", "IT", "ES", "PT", "NL"])
        let france = try #require(report.calls[1].countries.first)
        #expect(france.name == Demo.Country.Name(common: "France", official: "French Republic"))
        #expect(france.capital == ["Paris"])
        #expect(report.calls[2].countries.map(\.name.common) == ["Japan"])
        #expect(report.calls[3].countries.map(\.population) == [32_971_846])
    }

    @Test func theScripted503IsRetriedOnceAfterItsRetryAfter() async throws {
        let (report, output, clock) = try await runDemo()

        #expect(report.retries == 1)
        #expect(clock.sleeps.contains(.seconds(1)))
        #expect(output.contains { $0.contains("↻ retrying GET /region/europe after unacceptableStatus(503)") })
        #expect(output.filter { $0.contains("failed GET https://fixtures.invalid/v3.1/region/europe 503") }.count == 1)
    }

    /// Runs the whole demo on a manual clock, releasing each wait only once the calls it should hold are all
    /// waiting: the three look-ups of step 2 overlap, and the five look-ups of step 4 all join one shared request.
    private func runDemoStepByStep() async throws -> (DemoReport, [String]) {
        let lines = LockedBox<[String]>([])
        let console = DemoConsole(style: .plain) { line in lines.withLock { $0.append(line) } }
        let clock = TestClock(mode: .manual)
        let demo = Task { try await DemoScenario.run(backend: .bundledFixtures, console: console, clock: clock) }
        await clock.waitForSleepers(1)  // step 1: the retry, waiting for Retry-After: 1
        clock.advance(by: .seconds(1))
        await clock.waitForSleepers(3)  // step 2: the three look-ups, on their fixture delays
        clock.advance(by: .seconds(1))
        await clock.waitForSleepers(1)  // step 3: France again, revalidated
        clock.advance(by: .seconds(1))
        await clock.waitForSleepers(1)  // step 4: the one request the five look-ups share
        try await BehaviorFakes.waitUntil { console.inFlight.calls.first?.waiterCount == 5 }
        clock.advance(by: .seconds(1))
        await clock.waitForSleepers(1)  // step 5: the circuit's break
        clock.advance(by: Demo.API.breakerSettings.breakDuration)
        return (try await demo.value, lines.current)
    }

    @Test(.timeLimit(.minutes(1))) func outputShowsRedactedLogsActivityTableAndSummary() async throws {
        let (report, output) = try await runDemoStepByStep()

        #expect(Array(report.activity.prefix(4)) == [true, false, true, false])
        #expect(report.activity.enumerated().allSatisfy { $0.element == ($0.offset % 2 == 0) })
        #expect(report.inFlight == 0)
        // Every call counted as it happened: 1 + 3 story calls, France again, five Japans, three 503s, a refused
        // call and the probe; on the wire 2 + 3 + 1 + 1 + 3 + 0 + 1 requests.
        let summary =
            "15 calls (11 answered, 4 failed as the story says), 11 requests sent, 1 retry, 0 unexpected,"
            + " activity idle"
        #expect(report.summary == summary)
        #expect(output.last == "Summary: " + summary)
        #expect(report.allCalls.filter(\.failsInTheStory).allSatisfy { $0.error != nil })
        // Logging runs at `.outgoing`: every attempt that leaves the credential stage is logged, including the five
        // look-ups of step 4 that coalescing then sends as one (2 + 3 + 1 + 5 + 4).
        let sent = output.filter { $0.contains("] GET https://fixtures.invalid/") }
        #expect(sent.count == 15)
        #expect(sent.allSatisfy { $0.contains(#"Authorization="<redacted>""#) })
        #expect(!output.contains { $0.contains(Demo.API.demoToken) })
        #expect(output.contains { $0.contains("⏱ search screen: GET /name/peru answered in ") })
        #expect(output.contains("  GET /alpha/jp       JP    Japan        Tokyo      Asia      125,836,021"))
        #expect(!output.contains { $0.contains("\u{1B}[") })
    }

    @Test(.timeLimit(.minutes(1))) func cacheCoalescingAndCircuitBreakerShowInTheStory() async throws {
        let (report, output) = try await runDemoStepByStep()

        #expect(report.extras.unexpected.isEmpty)
        // Step 3: the second look-up of France is revalidated: one conditional request, answered 304.
        #expect(report.extras.revalidated == 6 && report.extras.notModifiedSent == 2)
        #expect(output.contains { $0.contains("GET /alpha/fr served from the cache (revalidated: 304)") })
        // What reached the backend: the conditional request and its 304, shown by the wire tap.
        #expect(output.contains { $0.contains("→ GET /v3.1/alpha/fr If-None-Match: ") })
        #expect(output.contains { $0.contains("← 304 Not Modified for GET /v3.1/alpha/fr") })
        // Step 4: five callers, one request.
        #expect(report.extras.coalescedCallers == 5)
        #expect(report.extras.coalescedRequests == 1)
        // Step 5: three 503s open the circuit, a call is refused unsent, the probe closes it.
        #expect(report.extras.circuit == ["closed → open", "open → halfOpen", "halfOpen → closed"])
        #expect(output.filter { $0.contains("] GET https://fixtures.invalid/v3.1/alpha/de") }.count == 4)
        #expect(output.contains { $0.contains("refused by the open circuit, nothing sent") })
        // Step 4: one 304 on the wire for five look-ups: one line says revalidated, four say they shared it.
        #expect(output.filter { $0.contains("← 304 Not Modified for GET /v3.1/alpha/jp") }.count == 1)
        #expect(output.filter { $0.contains("GET /alpha/jp served from the cache (revalidated: 304)") }.count == 1)
        #expect(
            output.filter {
                $0.contains(
                    "GET /alpha/jp served from the cache (revalidated by the same 304, shared through coalescing)")
            }.count == 4)
        #expect(
            output.contains(
                "Cache: 6 look-ups revalidated by 2 304s from the backend. Coalescing: 5 callers, 1 request."
                    + " Circuit: closed → open → halfOpen → closed."))
    }

    @Test func bundledFixturesAreValid() throws {
        guard case .fixtures(let directory) = Backend.bundledFixtures else {
            Issue.record("the default backend should be the bundled fixtures")
            return
        }
        try FixtureTransport(directory: directory).validate()
    }

    @Test func aMissingFixtureIsReportedAsAFailedCallNotACrash() async throws {
        // Given: an empty fixture folder
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("demo-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }

        // When
        let (report, output, _) = try await runDemo(on: .fixtures(directory: empty))

        // Then: the four story calls fail, and so does everything steps 3 to 5 expected
        #expect(report.calls.filter { $0.error != nil }.count == 4)
        #expect(report.failures > 4 && !report.extras.unexpected.isEmpty)
        #expect(report.summary.hasSuffix("\(report.failures) unexpected, activity idle"))
        #expect(report.calls[0].error?.contains("looked for region/europe.GET.json") == true)
        #expect(output.contains { $0.contains("GET /name/peru failed: ") && $0.contains("name/peru.GET.json") })
    }

    @Test(arguments: [
        ([], DemoOptions(backend: .bundledFixtures)),
        (["--no-color"], DemoOptions(backend: .bundledFixtures, colors: false)),
        (["--help"], DemoOptions(backend: .bundledFixtures, showHelp: true)),
        (
            ["--base-url", "https://countries.example/v3.1"],
            DemoOptions(backend: .live(baseURL: URL(string: "https://countries.example/v3.1")!))
        ),
        (
            ["--base-url=http://127.0.0.1:8080"],
            DemoOptions(backend: .live(baseURL: URL(string: "http://127.0.0.1:8080")!))
        ),
        (
            ["--base-url", "http://127.0.0.1:8080/v3.1", "--record", "/tmp/recorded"],
            DemoOptions(
                backend: .recording(
                    baseURL: URL(string: "http://127.0.0.1:8080/v3.1")!,
                    directory: URL(fileURLWithPath: "/tmp/recorded", isDirectory: true)))
        ),
        (
            ["--replay", "/tmp/recorded"],
            DemoOptions(backend: .replaying(directory: URL(fileURLWithPath: "/tmp/recorded", isDirectory: true)))
        ),
    ])
    func commandLineSelectsTheBackend(arguments: [String], expected: DemoOptions) throws {
        #expect(try DemoOptions.parse(arguments) == expected)
    }

    @Test(arguments: [
        ["--base-url"], ["--base-url", "ftp://x.test"], ["--base-url", "not a url"], ["--verbose"],
        ["--record", "/tmp/x"], ["--replay"], ["--replay", "/tmp/x", "--base-url", "http://127.0.0.1:1"],
    ])
    func commandLineMistakesAreRefused(arguments: [String]) {
        #expect(throws: DemoOptions.UsageError.self) { try DemoOptions.parse(arguments) }
    }

    @Test func liveBackendUsesItsBaseURLAndTheDefaultTransport() {
        let backend = Backend.live(baseURL: URL(string: "https://countries.example/v3.1")!)

        #expect(backend.baseURL.absoluteString == "https://countries.example/v3.1")
        #expect(backend.transport(clock: SystemClock()) == nil)
        #expect(Backend.bundledFixtures.transport(clock: SystemClock()) is FixtureTransport)
        let folder = URL(fileURLWithPath: "/tmp/recorded")
        let recording = Backend.recording(baseURL: URL(string: "http://127.0.0.1:1/v3.1")!, directory: folder)
        let recorder = recording.transport(clock: SystemClock()) as? RecordingTransport
        #expect(recorder?.mode == .recordAll)
        #expect(recorder?.basePath == "/v3.1")
        let replayer = Backend.replaying(directory: folder).transport(clock: SystemClock()) as? RecordingTransport
        #expect(replayer?.mode == .replayOnly)
        #expect(Backend.replaying(directory: folder).baseURL == Backend.fixtureBaseURL)
    }

    @Test(arguments: [(0, "0"), (999, "999"), (1_000, "1,000"), (67_391_582, "67,391,582"), (-1_234, "-1,234")])
    func populationsAreGroupedByThousands(value: Int, text: String) {
        #expect(CountryTable.grouped(value) == text)
    }

    /// `make demo` builds with SwiftPM's progress lines before it runs, so a first build shows it is working.
    @Test func makeDemoShowsTheBuildAsItGoes() throws {
        let makefile = try String(contentsOf: DocumentSamples.root.appendingPathComponent("Makefile"), encoding: .utf8)
        let recipe = try #require(
            makefile.components(separatedBy: "\ndemo:").dropFirst().first?
                .components(separatedBy: "\n\n").first)
        #expect(recipe.contains("$(SWIFT) build --product Demo\n"))
        #expect(recipe.contains("$(SWIFT) run -q --skip-build Demo $(ARGS)"))
    }
}
