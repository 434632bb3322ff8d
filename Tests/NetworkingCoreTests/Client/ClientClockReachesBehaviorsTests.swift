import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The clock given to the client is the one every behavior given no clock of its own waits and measures on: a
/// `TestClock` drives the production path, the attempt timeout and the retry wait alike.
@Suite struct ClientClockReachesBehaviorsTests {
    @Test func theClientsClockDrivesTheAttemptTimeoutAndTheRetryWait() async throws {
        // Given a transport that hangs once, then answers 503 with Retry-After, then 200
        let clock = TestClock(mode: .manual)
        let hits = LockedCounter()
        let transport = MockTransport { request in
            hits.increment()
            switch hits.value {
            case 1:
                try await Task.sleep(for: .seconds(3600))
                return (HTTPResponse(status: 200), Data())
            case 2: return (HTTPResponse(status: 503, headerFields: ["Retry-After": "7"]), Data())
            default: return (HTTPResponse(status: 200), Data("ok".utf8))
            }
        }
        // And a retry given no clock of its own
        let client = try makeClient(
            transport: transport, behavior: .retry(RetrySettings(maximumAttempts: 3)), clock: clock,
            timeout: .seconds(5), deadline: nil)
        let call = Task { try await client.send(NetworkRequest<String>(path: "/x")) }

        // When the test clock passes the attempt timeout, the first attempt times out on it
        await clock.waitForTimers(1)
        clock.advance(by: .seconds(5))
        // Then the retry waits on the same clock: its back-off sleep is pending on it, not on the system clock
        await clock.waitForSleepers(1)
        #expect(hits.value == 1)
        clock.advance(by: .seconds(30))
        // And the 503's Retry-After of 7 s is waited on the test clock too
        await clock.waitForSleepers(1)
        #expect(hits.value == 2)
        clock.advance(by: .seconds(7))

        #expect(try await call.value == "ok")
        #expect(hits.value == 3)
        #expect(clock.sleeps.last == .seconds(7))
    }

    @Test func aBehaviorsOwnClockWinsOverTheClients() async throws {
        // Given a retry with its own automatic clock on a client whose clock is manual
        let own = TestClock(mode: .automatic)
        let transport = answering(503)
        let client = try makeClient(
            transport: transport, behavior: .retry(RetrySettings(maximumAttempts: 2), clock: own),
            clock: TestClock(mode: .manual), deadline: nil)
        // When the call fails twice, the wait between ran on the behavior's clock (it would hang on the client's)
        let error = try await expectNetworkError { try await client.send(NetworkRequest<Void>(path: "/x")) }
        #expect(error?.kind == .unacceptableStatus(503))
        #expect(transport.requestCount == 2)
        #expect(own.sleeps.count == 1)
    }
}
