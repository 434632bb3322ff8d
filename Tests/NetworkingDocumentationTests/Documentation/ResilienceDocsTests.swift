import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Resilience article (Networking.docc/Resilience.md): its one-line chain compiles and behaves as described, through a whole client.
@Suite struct ResilienceDocsTests {
    @Test func theReadmeShowsTheOrderBuiltHere() throws {
        let root = DocumentSamples.root
        let readme = try String(
            contentsOf: root.appendingPathComponent("Sources/Networking/Networking.docc/Resilience.md"), encoding: .utf8
        )
        #expect(readme.contains("`CombinedBehavior([.rateLimit(), .retry(), .circuitBreaker()])`"))
        let chain = CombinedBehavior([.rateLimit(), .retry(), .circuitBreaker()])
        #expect(chain.behaviors.count == 3)
        #expect(chain.behaviors[0] is RateLimitBehavior)
        #expect(chain.behaviors[1] is RetryBehavior)
        #expect(chain.behaviors[2] is CircuitBreakerBehavior)
    }

    /// Inside retry, each attempt counts: one call's three 503s open the circuit, and the next call fails fast
    /// without reaching the transport and without being retried.
    @Test func insideRetryEachAttemptCountsAndAnOpenCircuitIsNotRetried() async throws {
        let clock = TestClock()
        let mock = answering(503)
        let breaker = CircuitBreakerBehavior.circuitBreaker(
            try CircuitBreakerSettings(minimumThroughput: 3), clock: clock)
        let client = try makeClient(
            transport: mock,
            behavior: CombinedBehavior([.rateLimit(clock: clock), .retry(clock: clock), breaker]))
        let first = try await expectNetworkError { try await client.send(NetworkRequest<Data>(path: "/items")) }
        #expect(first?.kind == .unacceptableStatus(503))
        #expect(mock.recordedRequests.count == 3)
        let second = try await expectNetworkError { try await client.send(NetworkRequest<Data>(path: "/items")) }
        #expect(second?.kind == .behavior("CircuitBreakerBehavior"))
        #expect(second?.underlyingError is CircuitOpenError)
        #expect(mock.recordedRequests.count == 3)
    }
}
