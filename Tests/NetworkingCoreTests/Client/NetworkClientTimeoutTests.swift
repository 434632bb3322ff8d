import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Time limits run on a manual test clock, through the same timers as on the system clock: the transport hangs
/// until cancelled, the test moves time forward.
@Suite struct NetworkClientTimeoutTests {
    /// A transport that never answers; it ends only when cancelled, and counts the cancellations it saw.
    final class HangingTransport: HTTPTransport {
        let cancellations = LockedCounter()
        func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
            do {
                try await Task.sleep(for: .seconds(3600))
            } catch {
                cancellations.increment()
                throw error
            }
            return (HTTPResponse(status: 200), .empty)
        }
    }

    @Test func subSecondAttemptTimeoutFiresAndCancelsTheTransport() async throws {
        let clock = TestClock(mode: .manual)
        let transport = HangingTransport()
        let client = try makeClient(transport: transport, clock: clock, timeout: .milliseconds(300), deadline: nil)
        let call = Task { try await client.send(NetworkRequest<Void>(path: "/slow")) }
        await clock.waitForTimers(1)
        #expect(clock.scheduledDelays == [.milliseconds(300)])
        clock.advance(by: .milliseconds(299))
        #expect(clock.pendingTimerCount == 1)
        clock.advance(by: .milliseconds(1))
        let error = try #require(await expectNetworkError { try await call.value })
        #expect(error.kind == .timedOut(.attempt))
        #expect(transport.cancellations.value == 1)
    }

    @Test func requestTimeoutOverridesTheClientTimeout() async throws {
        let clock = TestClock(mode: .manual)
        let client = try makeClient(transport: HangingTransport(), clock: clock, timeout: .seconds(60), deadline: nil)
        let call = Task { try await client.send(NetworkRequest<Void>(path: "/slow", timeout: .milliseconds(50))) }
        await clock.waitForTimers(1)
        #expect(clock.scheduledDelays == [.milliseconds(50)])
        clock.advance(by: .milliseconds(50))
        let error = try await expectNetworkError { try await call.value }
        #expect(error?.kind == .timedOut(.attempt))
    }

    @Test func callDeadlineBoundsAnAttemptLongerThanTheTimeLeft() async throws {
        let clock = TestClock(mode: .manual)
        let client = try makeClient(
            transport: HangingTransport(), clock: clock, timeout: .seconds(60), deadline: .seconds(2))
        let call = Task { try await client.send(NetworkRequest<Void>(path: "/slow")) }
        await clock.waitForTimers(1)
        #expect(clock.scheduledDelays == [.seconds(2)])
        clock.advance(by: .seconds(2))
        let error = try await expectNetworkError { try await call.value }
        #expect(error?.kind == .timedOut(.call))
    }

    @Test func theDeadlineCoversRetriesAndBackOff() async throws {
        // Attempts of 1 s each, a 2.4 s deadline: attempt 1 times out at 1 s, back-off waits 0.5 s on the same
        // clock, attempt 2 gets the 0.9 s left, and the call ends with a call timeout, not a third attempt.
        let clock = TestClock(mode: .manual)
        let transport = HangingTransport()
        let retry = RetryBehavior(settings: RetrySettings(baseDelay: .milliseconds(500)), clock: clock, random: { 1 })
        let client = try makeClient(
            transport: transport, behavior: retry, clock: clock, timeout: .seconds(1), deadline: .milliseconds(2400))
        let call = Task { try await client.send(NetworkRequest<Void>(path: "/slow")) }
        await clock.waitForTimers(1)
        clock.advance(by: .seconds(1))
        await clock.waitForSleepers(1)
        #expect(clock.scheduledDelays == [.seconds(1)])
        #expect(clock.sleeps == [.milliseconds(500)])
        clock.advance(by: .milliseconds(500))
        await clock.waitForTimers(1)
        #expect(clock.scheduledDelays.last == .milliseconds(900))
        clock.advance(by: .milliseconds(900))
        let error = try await expectNetworkError { try await call.value }
        #expect(error?.kind == .timedOut(.call))
        #expect(transport.cancellations.value == 2)
    }

    @Test func retryDoesNotWaitPastTheDeadline() async throws {
        let clock = TestClock(mode: .manual)
        let retry = RetryBehavior(settings: RetrySettings(baseDelay: .seconds(10)), clock: clock, random: { 1 })
        let transport = answering(503)
        let client = try makeClient(
            transport: transport, behavior: retry, clock: clock, timeout: .seconds(1), deadline: .seconds(5))
        let error = try await expectNetworkError { try await client.send(NetworkRequest<Void>(path: "/busy")) }
        #expect(error?.kind == .unacceptableStatus(503))
        #expect(transport.requestCount == 1)
        #expect(clock.sleeps.isEmpty, "no 10 s back-off: \(clock.sleeps)")
    }
}
