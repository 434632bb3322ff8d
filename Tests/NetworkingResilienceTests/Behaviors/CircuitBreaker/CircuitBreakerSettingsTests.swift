import Foundation
import Networking
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `CircuitBreakerSettings` validation and `CircuitBreakerBehavior.outcome(of:now:)`, the rule of what counts, as
/// tables.
@Suite struct CircuitBreakerSettingsTests {
    @Test func defaultsAreThoseDocumented() {
        let settings = CircuitBreakerSettings.default
        #expect(settings.failureRatio == 0.5)
        #expect(settings.minimumThroughput == 10)
        #expect(settings.samplingWindow == .seconds(30))
        #expect(settings.breakDuration == .seconds(5))
        #expect(settings.halfOpenProbes == 1)
        #expect(settings.maximumBreakDuration == .seconds(60))
        #expect(CircuitBreakerBehavior.circuitBreaker().settings == settings)
        #expect(
            CircuitBreakerBehavior.circuitBreaker().scope.key(for: BehaviorFakes.request, context: .init())
                == "api.example.test:443")
    }

    static let badSettings: [(String, @Sendable () throws -> CircuitBreakerSettings)] = [
        (
            "CircuitBreakerSettings.failureRatio is 0.0; it must be more than 0 and at most 1",
            { try CircuitBreakerSettings(failureRatio: 0) }
        ),
        (
            "CircuitBreakerSettings.failureRatio is -0.5; it must be more than 0 and at most 1",
            { try CircuitBreakerSettings(failureRatio: -0.5) }
        ),
        (
            "CircuitBreakerSettings.failureRatio is 1.5; it must be more than 0 and at most 1",
            { try CircuitBreakerSettings(failureRatio: 1.5) }
        ),
        (
            "CircuitBreakerSettings.failureRatio is nan; it must be more than 0 and at most 1",
            { try CircuitBreakerSettings(failureRatio: .nan) }
        ),
        (
            "CircuitBreakerSettings.minimumThroughput is 0; it must be at least 1",
            { try CircuitBreakerSettings(minimumThroughput: 0) }
        ),
        (
            "CircuitBreakerSettings.minimumThroughput is -3; it must be at least 1",
            { try CircuitBreakerSettings(minimumThroughput: -3) }
        ),
        (
            "CircuitBreakerSettings.samplingWindow is 0.0 seconds; it must be at least 0.01 seconds",
            { try CircuitBreakerSettings(samplingWindow: .zero) }
        ),
        (
            "CircuitBreakerSettings.breakDuration is -1.0 seconds; it must be more than 0.0 seconds",
            { try CircuitBreakerSettings(breakDuration: .seconds(-1)) }
        ),
        (
            "CircuitBreakerSettings.halfOpenProbes is 0; it must be at least 1",
            { try CircuitBreakerSettings(halfOpenProbes: 0) }
        ),
        (
            "CircuitBreakerSettings.maximumBreakDuration is 2.0 seconds; it must be at least 5.0 seconds",
            { try CircuitBreakerSettings(maximumBreakDuration: .seconds(2)) }
        ),
    ]

    @Test(arguments: badSettings.indices)
    func badValuesAreRejectedNamingTheSetting(index: Int) {
        let (message, make) = Self.badSettings[index]
        #expect(throws: BehaviorSettingsError.self) { try make() }
        do {
            _ = try make()
        } catch {
            #expect("\(error)" == message)
        }
    }

    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    static func status(_ code: Int, retryAfter: String? = nil) -> NetworkError {
        var headers: HTTPFields = [:]
        if let retryAfter { headers[.retryAfter] = retryAfter }
        return NetworkError(
            .unacceptableStatus(code), requestName: "GET /x", message: "status",
            response: HTTPResponse(status: .init(code: code), headerFields: headers, url: nil))
    }

    static func kind(_ kind: NetworkError.Kind) -> NetworkError {
        NetworkError(kind, requestName: "GET /x", message: "failed")
    }

    static let failure = CircuitBreakerState.Outcome.failure(retryAfter: nil)

    static let outcomes: [(String, any Error, CircuitBreakerState.Outcome)] = [
        ("500", status(500), failure),
        ("502", status(502), failure),
        ("503", status(503), failure),
        ("504", status(504), failure),
        ("501: permanent, the server answers", status(501), .success),
        ("408", status(408), failure),
        ("429", status(429), failure),
        ("503 Retry-After 20", status(503, retryAfter: "20"), .failure(retryAfter: .seconds(20))),
        (
            "429 Retry-After date", status(429, retryAfter: "Tue, 14 Nov 2023 22:13:50 GMT"),
            .failure(retryAfter: .seconds(30))
        ),
        ("503 Retry-After garbage", status(503, retryAfter: "soon"), failure),
        ("500 Retry-After is not read", status(500, retryAfter: "20"), failure),
        ("400", status(400), .success),
        ("401", status(401), .success),
        ("404", status(404), .success),
        ("422", status(422), .success),
        ("304", status(304), .success),
        ("transport cannotConnect", kind(.transport(.cannotConnect)), failure),
        ("transport timedOut", kind(.transport(.timedOut)), failure),
        ("transport connectionLost", kind(.transport(.connectionLost)), failure),
        ("transport secureConnectionFailed: permanent, no answer", kind(.transport(.secureConnectionFailed)), .ignored),
        ("transport tooManyRedirects", kind(.transport(.tooManyRedirects)), .ignored),
        ("transport redirectRefused", kind(.transport(.redirectRefused)), .ignored),
        ("transport responseTooLarge", kind(.transport(.responseTooLarge)), .ignored),
        ("attempt timeout", kind(.timedOut(.attempt)), failure),
        ("call deadline", kind(.timedOut(.call)), .ignored),
        ("another behavior", kind(.behavior("AuthorizationBehavior")), .ignored),
        ("invalidRequest", kind(.invalidRequest), .ignored),
        ("encoding", kind(.encoding), .ignored),
        ("decoding", kind(.decoding), .ignored),
        ("CancellationError", CancellationError(), .ignored),
        ("bare TransportError", TransportError(.cannotConnect, "refused"), failure),
        ("any other error", TestError("x"), .ignored),
    ]

    @Test(arguments: outcomes.indices)
    func whatCountsAsAFailure(index: Int) {
        let (name, error, expected) = Self.outcomes[index]
        #expect(CircuitBreakerBehavior.outcome(of: error, now: Self.now) == expected, "\(name)")
    }
}
