import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

/// `withTimeLimit(interruptible: true)`: on a transport that stops its own transfers, the limit runs the attempt in
/// the calling task and its timer stops the registered transfers instead of cancelling a task. Same timer, same
/// claim-once race, on the injected clock.
@Suite struct TimeLimitInterruptionTests {
    struct LimitPassed: Error {}
    static let limitPassed: @Sendable () -> any Error = { LimitPassed() }

    /// A transport that answers `200 ok` from its second call on; its first call waits until its transfer is
    /// stopped through the current interruption, counting the stops.
    final class StoppableTransport: InterruptibleTransport {
        let hits = LockedCounter()
        let stops = LockedCounter()
        /// Whether the first call found an interruption to register with.
        let sawInterruption = LockedBox(false)
        /// Whether the first call's transfer is registered (or refused): the test passes the limit only then.
        let registered = LockedBox(false)

        func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
            hits.increment()
            guard hits.value == 1 else { return (HTTPResponse(status: 200), HTTPBody(Data("ok".utf8))) }
            let interruption = TransferInterruption.current
            sawInterruption.withLock { $0 = interruption != nil }
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let waiting = LockedBox<CheckedContinuation<Void, any Error>?>(continuation)
                let stop: @Sendable () -> Void = {
                    waiting.withLock {
                        $0?.resume(throwing: CancellationError())
                        $0 = nil
                    }
                }
                let registration = interruption?.register { [stops] in
                    stops.increment()
                    stop()
                }
                registered.withLock { $0 = true }
                if registration == nil { stop() }
            }
            throw CancellationError()
        }
    }

    @Test func anInterruptibleOperationRunsInTheCallingTaskAnOtherOneInATaskOfItsOwn() async throws {
        let caller = withUnsafeCurrentTask { $0?.hashValue }
        let clock = TestClock(mode: .manual)
        let inside = try await withTimeLimit(
            .seconds(1), clock: clock, onTimeout: Self.limitPassed, interruptible: true
        ) {
            withUnsafeCurrentTask { $0?.hashValue }
        }
        let apart = try await withTimeLimit(.seconds(1), clock: clock, onTimeout: Self.limitPassed) {
            withUnsafeCurrentTask { $0?.hashValue }
        }
        #expect(caller != nil)
        #expect(inside == caller)
        #expect(apart != caller)
        #expect(clock.pendingTimerCount == 0)
    }

    @Test(.timeLimit(.minutes(1))) func theTimerStopsTheRegisteredTransferAndTheCallerStaysUncancelled() async throws {
        let clock = TestClock(mode: .manual)
        let transport = StoppableTransport()
        let call = Task {
            let outcome: Result<HTTPResponse, any Error>
            do {
                let (response, _) = try await withTimeLimit(
                    .seconds(5), clock: clock, onTimeout: Self.limitPassed, interruptible: true
                ) {
                    try await transport.send(HTTPRequest(url: URL(string: "http://example.invalid/")!))
                }
                outcome = .success(response)
            } catch {
                outcome = .failure(error)
            }
            return (outcome, Task.isCancelled)
        }
        await clock.waitForTimers(1)
        // The timer is set before the operation runs: passing the limit before the transfer registers would test
        // the refusal of a late registration instead (a serial run under ThreadSanitizer got there first).
        try await BehaviorFakes.waitUntil { transport.registered.current }
        clock.advance(by: .seconds(4))
        #expect(transport.stops.value == 0, "nothing is stopped before the limit")
        clock.advance(by: .seconds(1))
        let (outcome, callerCancelled) = await call.value
        #expect(throws: LimitPassed.self) { try outcome.get() }
        #expect(transport.sawInterruption.current)
        #expect(transport.stops.value == 1)
        #expect(!callerCancelled, "the limit stops the transfer, never the calling task")
    }

    @Test func aTransferRegisteredAfterTheInterruptionIsRefusedAndAnUnregisteredOneNotStopped() {
        let interruption = TransferInterruption()
        let stops = LockedCounter()
        let kept = interruption.register { stops.increment() }
        let ended = interruption.register { stops.increment() }
        #expect(kept != nil && ended != nil && kept != ended)
        if let ended { interruption.unregister(ended) }
        interruption.interrupt()
        #expect(stops.value == 1)
        #expect(interruption.register { stops.increment() } == nil)
        interruption.interrupt()
        #expect(stops.value == 1, "each registration is stopped once")
    }

    @Test func everyTransferStillRegisteredIsStoppedWhicheverEndedBefore() {
        // Given four registrations, the first and the second of them ended before the limit passed
        let interruption = TransferInterruption()
        let stopped = LockedBox<[Int]>([])
        let first = interruption.register { stopped.withLock { $0.append(1) } }
        let second = interruption.register { stopped.withLock { $0.append(2) } }
        _ = interruption.register { stopped.withLock { $0.append(3) } }
        if let first { interruption.unregister(first) }
        _ = interruption.register { stopped.withLock { $0.append(4) } }
        if let second { interruption.unregister(second) }
        // When the limit interrupts the attempt
        interruption.interrupt()
        // Then the two still registered are stopped, once each
        #expect(stopped.current.sorted() == [3, 4])
        interruption.interrupt()
        #expect(stopped.current.count == 2)
    }

    @Test(.timeLimit(.minutes(1))) func throughTheClientTheAttemptTimesOutOnTheInjectedClockAndTheRetrySucceeds()
        async throws
    {
        // Given an interruptible transport whose first transfer hangs, and a client retrying on a manual clock
        let clock = TestClock(mode: .manual)
        let transport = StoppableTransport()
        let client = try makeClient(
            transport: transport, behavior: .retry(RetrySettings(maximumAttempts: 2)), clock: clock,
            timeout: .seconds(5), deadline: nil)
        let call = Task { try await client.send(NetworkRequest<String>(path: "/x")) }
        // When the attempt timeout passes on the test clock, the transfer is stopped (not a task cancelled)
        await clock.waitForTimers(1)
        clock.advance(by: .seconds(5))
        await clock.waitForSleepers(1)
        #expect(transport.stops.value == 1)
        clock.advance(by: .seconds(30))
        // Then the retry, in the same uncancelled task, gets the answer
        #expect(try await call.value == "ok")
        #expect(transport.hits.value == 2)
    }
}
