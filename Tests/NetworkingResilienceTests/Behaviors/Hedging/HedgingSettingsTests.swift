import Foundation
import Networking
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `HedgingSettings`: checks at construction, defaults, which requests may be hedged, which errors end a call, and
/// `LatencyWindow`'s percentiles.
@Suite struct HedgingSettingsTests {
    @Test(arguments: [
        (0, HedgingDelay.fixed(.seconds(1)), 20, "HedgingSettings.maximumHedges is 0; it must be at least 1"),
        (-2, .fixed(.seconds(1)), 20, "HedgingSettings.maximumHedges is -2; it must be at least 1"),
        (1, .fixed(.zero), 20, "HedgingSettings.delay is 0.0 seconds; it must be more than 0.0 seconds"),
        (1, .fixed(.seconds(-1)), 20, "HedgingSettings.delay is -1.0 seconds; it must be more than 0.0 seconds"),
        (
            1, .percentile(0, fallback: .seconds(1)), 20,
            "HedgingSettings.delay.percentile is 0.0; it must be between 0 and 100 (excluded)"
        ),
        (
            1, .percentile(100, fallback: .seconds(1)), 20,
            "HedgingSettings.delay.percentile is 100.0; it must be between 0 and 100 (excluded)"
        ),
        (
            1, .percentile(.nan, fallback: .seconds(1)), 20,
            "HedgingSettings.delay.percentile is nan; it must be between 0 and 100 (excluded)"
        ),
        (
            1, .percentile(95, fallback: .zero), 20,
            "HedgingSettings.delay.fallback is 0.0 seconds; it must be more than 0.0 seconds"
        ),
        (1, .percentile(95, fallback: .seconds(1)), 0, "HedgingSettings.minimumSamples is 0; it must be at least 1"),
    ])
    func badValuesAreRejectedNamingTheSetting(hedges: Int, delay: HedgingDelay, samples: Int, message: String) throws {
        let error = try expectError(BehaviorSettingsError.self) {
            try HedgingSettings(maximumHedges: hedges, delay: delay, minimumSamples: samples)
        }
        #expect(error.map { "\($0)" } == message)
    }

    @Test func defaultsAreOneHedgeAfterTheNinetyFifthPercentileFallingBackToOneSecond() throws {
        let settings = HedgingSettings.default
        #expect(settings.maximumHedges == 1)
        #expect(settings.delay == .percentile(95, fallback: .seconds(1)))
        #expect(settings.minimumSamples == 20)
        #expect(settings.idempotencyKeyHeader == .idempotencyKey)
        let built = try HedgingSettings()
        #expect(built.maximumHedges == 1 && built.delay == settings.delay && built.minimumSamples == 20)
        let a = HTTPRequest(url: URL(string: "https://a.test/x")!)
        #expect(settings.scope.key(for: a, context: RequestContext()) == "a.test:443")
    }

    @Test(
        arguments: [
            (HTTPMethod.get, nil, true), (.head, nil, true), (.put, nil, true), (.delete, nil, true),
            (.options, nil, true), (.post, nil, false), (.patch, nil, false), (.post, "k-1", true),
            (.patch, "k-2", true),
        ] as [(HTTPMethod, String?, Bool)])
    func onlyRequestsSafeToSendTwiceAreHedged(method: HTTPMethod, key: String?, hedged: Bool) {
        var request = HTTPRequest(method: method, url: URL(string: "https://a.test/x")!)
        if let key { request.headerFields[.idempotencyKey] = key }
        #expect(HedgingSettings.default.allowsHedging(request) == hedged)
    }

    @Test func withoutAnIdempotencyHeaderAKeyedPOSTIsNotHedged() throws {
        var request = HTTPRequest(method: .post, url: URL(string: "https://a.test/x")!)
        request.headerFields[.idempotencyKey] = "k"
        #expect(try HedgingSettings(idempotencyKeyHeader: nil).allowsHedging(request) == false)
    }

    static func error(_ kind: NetworkError.Kind) -> NetworkError {
        NetworkError(kind, requestName: "GET /x", message: "test")
    }

    @Test(arguments: [
        (error(.unacceptableStatus(404)), true), (error(.unacceptableStatus(400)), true),
        (error(.unacceptableStatus(408)), false), (error(.unacceptableStatus(429)), false),
        (error(.unacceptableStatus(500)), false), (error(.unacceptableStatus(503)), false),
        (error(.timedOut(.call)), true), (error(.timedOut(.attempt)), false),
        (error(.transport(.connectionLost)), false), (error(.invalidRequest), true), (error(.decoding), true),
        (error(.behavior("X")), true), (error(.encoding), true),
        (error(.unacceptableStatus(501)), true), (error(.unacceptableStatus(505)), true),
        (error(.unacceptableStatus(502)), false), (error(.unacceptableStatus(504)), false),
        (error(.transport(.secureConnectionFailed)), true), (error(.transport(.tooManyRedirects)), true),
        (error(.transport(.responseTooLarge)), true), (error(.transport(.cannotConnect)), false),
    ])
    func whichErrorsEndTheCall(error: NetworkError, final: Bool) {
        #expect(HedgingSettings.isFinal(error) == final)
    }

    @Test func errorsAreReadByTheSharedClassifier() {
        // An error nobody classifies is permanent for every behavior alike (FailureClassification), so final here.
        struct Other: Error {}
        #expect(HedgingSettings.isFinal(Other()))
        #expect(!HedgingSettings.isFinal(TransportError(.connectionLost, "reset")))
        #expect(HedgingSettings.isFinal(TransportError(.secureConnectionFailed, "bad certificate")))
    }

    @Test func aPercentileDelayFallsBackUntilEnoughLatenciesAreKnown() throws {
        let settings = try HedgingSettings(delay: .percentile(90, fallback: .seconds(2)), minimumSamples: 10)
        let store = InMemoryLatencyStore()
        for ms in 1...9 { store.record(.milliseconds(ms * 100), for: "h") }
        #expect(settings.hedgingDelay(for: "h", in: store) == .seconds(2))
        store.record(.milliseconds(1_000), for: "h")
        #expect(settings.hedgingDelay(for: "h", in: store) == .milliseconds(900))
        #expect(settings.hedgingDelay(for: "other", in: store) == .seconds(2))
        #expect(
            try HedgingSettings(delay: .fixed(.milliseconds(250))).hedgingDelay(for: "h", in: store)
                == .milliseconds(250))
    }

    @Test func everyWholePercentileOfUpToTwoHundredLatenciesIsTheNearestRank() {
        // ⌈p × n / 100⌉ in integers, against the window, for every n up to 200 and every whole p: p / 100 × n in
        // floating point once landed above a whole number and took one rank too many (55 % of 100 gave the 56th).
        for count in 1...200 {
            var window = LatencyWindow(capacity: count)
            for value in 1...count { window.record(.milliseconds(value)) }
            for p in 1...99 {
                let rank = (p * count + 99) / 100
                #expect(window.percentile(Double(p)) == .milliseconds(rank), "p\(p) of \(count)")
            }
        }
    }

    @Test(arguments: [
        ([100, 200, 300, 400, 500, 600, 700, 800, 900, 1000], 95.0, 1000),
        ([100, 200, 300, 400, 500, 600, 700, 800, 900, 1000], 50.0, 500),
        ([100, 200, 300, 400, 500, 600, 700, 800, 900, 1000], 90.0, 900),
        ([100, 200, 300, 400, 500, 600, 700, 800, 900, 1000], 1.0, 100),
        ([700, 100, 400], 50.0, 400),
        ([250], 99.0, 250),
    ])
    func nearestRankPercentiles(samples: [Int], percentile: Double, expected: Int) {
        var window = LatencyWindow()
        for ms in samples { window.record(.milliseconds(ms)) }
        #expect(window.percentile(percentile) == .milliseconds(expected))
    }

    @Test func theWindowKeepsTheNewestLatenciesOnly() {
        var window = LatencyWindow(capacity: 3)
        #expect(window.percentile(50) == nil)
        for ms in [900, 800, 100, 200, 300] { window.record(.milliseconds(ms)) }
        #expect(window.samples.sorted() == [.milliseconds(100), .milliseconds(200), .milliseconds(300)])
        #expect(LatencyWindow(capacity: 0).capacity == 1)
        #expect(LatencyWindow().capacity == 100)
    }
}
