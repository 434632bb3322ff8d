import Foundation
import Networking
import NetworkingTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Time limits run on a manual test clock: the transport hangs until cancelled, the test moves time forward.
@Suite struct NetworkClientTimeoutTests {
    /// A transport that never answers; it ends only when cancelled, and counts the cancellations it saw.
    final class HangingTransport: HTTPTransport {
        let cancellations = LockedCounter()
        func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
            do {
                try await Task.sleep(for: .seconds(3600))
            } catch {
                cancellations.increment()
                throw error
            }
            return (Data(), .stub(for: request))
        }
    }

    @Test func subSecondAttemptTimeoutFiresAndCancelsTheTransport() async throws {
        let clock = TestClock(mode: .manual)
        let transport = HangingTransport()
        let client = makeClient(transport: transport, clock: clock, timeout: .milliseconds(300), deadline: nil)
        let call = Task { try await client.send(NetworkRequest<Void>(path: "/slow")) }
        await clock.waitForSleepers(1)
        #expect(clock.sleeps == [.milliseconds(300)])
        clock.advance(by: .milliseconds(299))
        #expect(clock.pendingSleepCount == 1)
        clock.advance(by: .milliseconds(1))
        let error = try #require(await expectNetworkError { try await call.value })
        #expect(error.kind == .timedOut(.attempt))
        #expect(transport.cancellations.value == 1)
    }

    @Test func requestTimeoutOverridesTheClientTimeout() async throws {
        let clock = TestClock(mode: .manual)
        let client = makeClient(transport: HangingTransport(), clock: clock, timeout: .seconds(60), deadline: nil)
        let call = Task { try await client.send(NetworkRequest<Void>(path: "/slow", timeout: .milliseconds(50))) }
        await clock.waitForSleepers(1)
        #expect(clock.sleeps == [.milliseconds(50)])
        clock.advance(by: .milliseconds(50))
        let error = await expectNetworkError { try await call.value }
        #expect(error?.kind == .timedOut(.attempt))
    }

    @Test func callDeadlineCoversTheWholeChain() async throws {
        let clock = TestClock(mode: .manual)
        let client = makeClient(
            transport: HangingTransport(), clock: clock, timeout: .seconds(60), deadline: .seconds(2))
        let call = Task { try await client.send(NetworkRequest<Void>(path: "/slow")) }
        await clock.waitForSleepers(2)
        clock.advance(by: .seconds(2))
        let error = await expectNetworkError { try await call.value }
        #expect(error?.kind == .timedOut(.call))
    }

    @Test func urlRequestTimeoutIsRoundedUpSoTheLibcurlTimerNeverTruncates() async throws {
        let transport = answering()
        let client = makeClient(transport: transport, timeout: .milliseconds(300))
        try await client.send(NetworkRequest<Void>(path: "/x"))
        #expect(transport.requests.first?.timeoutInterval == 2)
    }
}

/// A thread-safe counter for test doubles.
final class LockedCounter: Sendable {
    private let box = LockedBox(0)
    func increment() { box.withLock { $0 += 1 } }
    var value: Int { box.current }
}
