import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `HedgingBehavior` alone, over scripted attempts, in virtual time (a manual `TestClock`): when hedges go out,
/// which answer wins, what the caller gets when all fail, and that every loser is cancelled before the call ends.
@Suite struct HedgingBehaviorTests {
    typealias Result = (HTTPResponse, HTTPResponse.Body)

    let clock = TestClock(mode: .manual)
    let store = InMemoryLatencyStore()

    func hedging(_ hedges: Int = 1, delay: Duration = .seconds(1)) throws -> HedgingBehavior {
        .hedging(try HedgingSettings(maximumHedges: hedges, delay: .fixed(delay)), store: store, clock: clock)
    }

    func call(
        _ behavior: HedgingBehavior, _ attempts: ScriptedAttempts, method: HTTPMethod = .get, key: String? = nil
    ) -> Task<Result, any Error> {
        var request = HTTPRequest(method: method, url: URL(string: "https://api.example.test/items")!)
        if let key { request.headerFields[.idempotencyKey] = key }
        let next = attempts.next
        return Task { [request] in try await behavior.intercept(request, context: RequestContext(), next: next) }
    }

    func body(_ result: Result) -> String { String(decoding: result.1.data ?? Data(), as: UTF8.self) }

    @Test func aFastAnswerSendsNoHedgeAndRecordsItsLatency() async throws {
        let attempts = ScriptedAttempts([.answer])
        let result = try await call(try hedging(), attempts).value
        #expect(body(result) == "1")
        #expect(attempts.started == 1)
        #expect(store.samples(for: "api.example.test:443") == [.zero])
        #expect(clock.pendingSleepCount == 0)
    }

    @Test func aSlowAttemptIsHedgedAfterTheDelayAndTheFastHedgeWins() async throws {
        // Given a first attempt that hangs and a second that answers at once
        let attempts = ScriptedAttempts([.hang, .answer])
        let task = call(try hedging(delay: .milliseconds(300)), attempts)
        await clock.waitForSleepers(1)
        // The delay's sleep and the first attempt start side by side: either can come first (the sleep did, in a
        // serial AddressSanitizer run).
        try await BehaviorFakes.waitUntil { attempts.started == 1 }
        #expect(clock.sleeps == [.milliseconds(300)])
        // When the delay passes
        clock.advance(by: .milliseconds(300))
        let result = try await task.value
        // Then the hedge answered, and the first attempt was cancelled and had ended before the call returned
        #expect(body(result) == "2")
        #expect(attempts.started == 2)
        #expect(attempts.cancelled == [1])
        #expect(attempts.ended == 2)
    }

    @Test(arguments: [1, 2, 3])
    func hedgesNeverExceedTheirMaximum(hedges: Int) async throws {
        let attempts = ScriptedAttempts([])  // every attempt hangs
        let task = call(try hedging(hedges), attempts)
        for sent in 1...hedges {
            await clock.waitForSleepers(1)
            try await BehaviorFakes.waitUntil { attempts.started == sent }
            clock.advance(by: .seconds(1))
            try await BehaviorFakes.waitUntil { attempts.started == sent + 1 }
        }
        clock.advance(by: .seconds(10))
        for _ in 0..<100 { await Task.yield() }
        #expect(attempts.started == hedges + 1)
        #expect(clock.pendingSleepCount == 0)
        // Cancelling the call cancels every attempt and reports the cancellation.
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(attempts.cancelled.count == hedges + 1)
        #expect(attempts.ended == hedges + 1)
    }

    @Test func anAttemptThatFailsFastSendsTheNextAtOnce() async throws {
        let attempts = ScriptedAttempts([.fail(503), .answer])
        let result = try await call(try hedging(), attempts).value
        #expect(body(result) == "2")
        #expect(clock.now() == .zero)
    }

    @Test func whenEveryAttemptFailsTheCallerGetsTheLastFailureNotACancellation() async throws {
        let attempts = ScriptedAttempts([.fail(503), .fail(502)])
        let error = try await expectNetworkError { try await call(try hedging(), attempts).value }
        #expect(error?.kind == .unacceptableStatus(502))
        #expect(attempts.started == 2)
    }

    @Test func aLateFailureWaitsForTheAttemptStillRunning() async throws {
        // The hedge fails while the first attempt still runs: the first one's answer is awaited, not the failure.
        let attempts = ScriptedAttempts([.hang, .fail(503)])
        let task = call(try hedging(), attempts)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        try await BehaviorFakes.waitUntil { attempts.ended == 1 }
        #expect(attempts.started == 2)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(attempts.cancelled == [1])
    }

    @Test func aFinalErrorEndsTheCallAndCancelsTheOthers() async throws {
        let attempts = ScriptedAttempts([.hang, .fail(404)])
        let task = call(try hedging(), attempts)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        let error = try await expectNetworkError { try await task.value }
        #expect(error?.kind == .unacceptableStatus(404))
        #expect(attempts.cancelled == [1])
        #expect(attempts.ended == 2)
    }

    @Test func aPOSTWithoutAnIdempotencyKeyIsSentOnceWithNoTimer() async throws {
        let attempts = ScriptedAttempts([.fail(503), .answer])
        let error = try await expectNetworkError { try await call(try hedging(), attempts, method: .post).value }
        #expect(error?.kind == .unacceptableStatus(503))
        #expect(attempts.started == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test func aPOSTWithAnIdempotencyKeyIsHedged() async throws {
        let attempts = ScriptedAttempts([.hang, .answer])
        let task = call(try hedging(), attempts, method: .post, key: "order-42")
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(body(try await task.value) == "2")
        #expect(attempts.started == 2)
    }

    @Test func aPercentileDelayComesFromTheLatenciesSeen() async throws {
        for ms in 1...20 { store.record(.milliseconds(ms * 10), for: "api.example.test:443") }
        let settings = try HedgingSettings(delay: .percentile(95, fallback: .seconds(5)), minimumSamples: 20)
        let attempts = ScriptedAttempts([.hang, .answer])
        let task = call(.hedging(settings, store: store, clock: clock), attempts)
        await clock.waitForSleepers(1)
        #expect(clock.sleeps == [.milliseconds(190)])
        clock.advance(by: .milliseconds(190))
        #expect(body(try await task.value) == "2")
    }
}
