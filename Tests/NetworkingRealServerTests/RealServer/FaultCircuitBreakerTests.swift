import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// The circuit breaker against the fault server: the server's hit counts prove that an open circuit sends
    /// nothing, that one probe goes after the break, and that a 503's `Retry-After` lengthens the break. Breaks run
    /// on a virtual clock the tests advance.
    @Suite struct FaultCircuitBreakerTests {
        private func client(_ settings: CircuitBreakerSettings, clock: TestClock) async throws -> NetworkClient {
            try await FaultServer.client(behavior: .circuitBreaker(settings, clock: clock))
        }

        private func send(_ client: NetworkClient, _ path: String, key: String) async -> NetworkError? {
            await send(client, path, query: Faults.query(key))
        }

        private func send(_ client: NetworkClient, _ path: String, query: [URLQueryItem]) async -> NetworkError? {
            do {
                _ = try await client.send(NetworkRequest<Data>(path: path, query: query))
                return nil
            } catch let error as NetworkError {
                return error
            } catch {
                Issue.record("expected a NetworkError, got \(error)")
                return nil
            }
        }

        @Test func failing503sOpenTheCircuitThenOneProbeAfterTheBreakClosesIt() async throws {
            let clock = TestClock()
            let client = try await client(
                try CircuitBreakerSettings(minimumThroughput: 4, breakDuration: .seconds(5)), clock: clock)
            let failing = FaultServer.newKey("breaker-503")
            for _ in 0..<4 {
                #expect(await send(client, "/status/503", key: failing)?.kind == .unacceptableStatus(503))
            }
            #expect(try await FaultServer.hits(failing).count == 4)
            for _ in 0..<5 {
                let error = await send(client, "/status/503", key: failing)
                #expect(error?.kind == .behavior("CircuitBreakerBehavior"))
                #expect((error?.underlyingError as? CircuitOpenError)?.phase == .open)
            }
            #expect(try await FaultServer.hits(failing).count == 4)

            // After the break one probe goes; it fails, so the circuit opens again and the next call is refused.
            clock.advance(by: .seconds(5))
            #expect(await send(client, "/status/503", key: failing)?.kind == .unacceptableStatus(503))
            #expect(await send(client, "/status/503", key: failing)?.kind == .behavior("CircuitBreakerBehavior"))
            #expect(try await FaultServer.hits(failing).count == 5)

            // After the next break a probe that succeeds closes the circuit: every later call is sent.
            clock.advance(by: .seconds(5))
            let healthy = FaultServer.newKey("breaker-200")
            for _ in 0..<3 { #expect(await send(client, "/status/200", key: healthy) == nil) }
            #expect(try await FaultServer.hits(healthy).count == 3)
            #expect(try await FaultServer.hits(failing).count == 5)
        }

        @Test(arguments: [("20", 20), ("86400", 30)])
        func retryAfterOnA503LengthensTheBreakUpToTheCap(header: String, breakSeconds: Int) async throws {
            let clock = TestClock()
            let settings = try CircuitBreakerSettings(
                minimumThroughput: 1, breakDuration: .seconds(5), maximumBreakDuration: .seconds(30))
            let client = try await client(settings, clock: clock)
            let key = FaultServer.newKey("breaker-retry-after")
            let query = Faults.query(key, ["retry_after": header])
            #expect(await send(client, "/flaky/1/503", query: query)?.kind == .unacceptableStatus(503))
            clock.advance(by: .seconds(breakSeconds - 1))
            let refused = await send(client, "/flaky/1/503", query: query)
            #expect((refused?.underlyingError as? CircuitOpenError)?.retryAfter == .seconds(1))
            #expect(try await FaultServer.hits(key).count == 1)
            clock.advance(by: .seconds(1))
            #expect(await send(client, "/flaky/1/503", query: query) == nil)
            #expect(try await FaultServer.hits(key).count == 2)
        }
    }
}
