import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// Cancellation at every stage of a call (Tests/README.md F22): the call throws `CancellationError` once, promptly,
    /// and the server is not hit again afterwards, retry behavior or not.
    @Suite struct FaultCancellationTests {
        private func isCancellation<T>(_ result: Result<T, any Error>) -> Bool {
            if case .failure(let error) = result { return error is CancellationError }
            return false
        }

        @Test func cancelBeforeTheCallStartsSendsNothing() async throws {
            let key = FaultServer.newKey("cancel-before")
            let client = try await FaultServer.client()
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await client.send(NetworkRequest<Data>(path: "/ok", query: Faults.query(key)))
            }
            #expect(isCancellation(await task.result))
            #expect(try await FaultServer.hits(key).count == 0)
        }

        @Test func cancelWhileAwaitingHeadersStopsAtOnceAndIsNotRetried() async throws {
            let key = FaultServer.newKey("cancel-headers")
            let counter = AttemptCounter()
            let client = try await FaultServer.client(
                behavior: CombinedBehavior([.retry(.default, clock: TestClock()), counter]))
            let task = Task {
                try await client.send(NetworkRequest<Data>(path: "/delay-ms/5000", query: Faults.query(key)))
            }
            try await Faults.waitForHits(key, atLeast: 1)
            let start = ContinuousClock.now
            task.cancel()
            #expect(isCancellation(await task.result))
            #expect(ContinuousClock.now - start < .seconds(2))
            #expect(counter.sent == 1)
            #expect(counter.failed == 1)
            try await Task.sleep(for: .milliseconds(200))  // real time: a stray retry would arrive by now
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func cancelMidBodyStopsAtOnce() async throws {
            let key = FaultServer.newKey("cancel-body")
            let client = try await FaultServer.client()
            let task = Task {
                try await client.send(
                    NetworkRequest<Data>(path: "/drip", query: Faults.query(key, ["chunks": "100", "ms": "50"])))
            }
            try await Faults.waitForHits(key, atLeast: 1)
            try await Task.sleep(for: .milliseconds(150))  // real time: some bytes have arrived
            let start = ContinuousClock.now
            task.cancel()
            #expect(isCancellation(await task.result))
            #expect(ContinuousClock.now - start < .seconds(2))
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func cancelDuringRetryBackOffStopsHitting() async throws {
            // The first attempt gets a 503; the retry waits on a manual clock; cancelling ends the wait, and advancing
            // the clock afterwards sends nothing more.
            let key = FaultServer.newKey("cancel-backoff")
            let clock = TestClock(mode: .manual)
            let client = try await FaultServer.client(behavior: .retry(.default, clock: clock))
            let task = Task {
                try await client.send(NetworkRequest<Data>(path: "/flaky/5/503", query: Faults.query(key)))
            }
            let deadline = ContinuousClock.now + .seconds(10)
            while clock.pendingSleepCount == 0 && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(clock.pendingSleepCount == 1)
            task.cancel()
            #expect(isCancellation(await task.result))
            clock.advance(by: .seconds(60))
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func callsInFlightFinishAfterTheirClientIsReleased() async throws {
            // F35 as far as a test process can go: the caller drops its only reference to the client and transport
            // while 20 calls are in flight; the calls keep what they need and finish, without a crash.
            let key = FaultServer.newKey("released")
            var tasks: [Task<[String: Int], any Error>] = []
            do {
                let client = try await FaultServer.client(transport: TestTransport.make())
                let request = NetworkRequest<[String: Int]>(path: "/delay-ms/300", query: Faults.query(key))
                tasks = (0..<20).map { _ in Task { try await client.send(request) } }
            }
            var finished = 0
            for task in tasks {
                if try await task.value == ["delayed_ms": 300] { finished += 1 }
            }
            #expect(finished == 20)
            #expect(try await FaultServer.hits(key).count == 20)
        }

        @Test func cancelAfterCompletionChangesNothing() async throws {
            let key = FaultServer.newKey("cancel-late")
            let client = try await FaultServer.client()
            let task = Task {
                try await client.send(NetworkRequest<[String: Bool]>(path: "/ok", query: Faults.query(key)))
            }
            let value = try await task.value
            task.cancel()
            #expect(value == ["ok": true])
            #expect(try await task.value == ["ok": true])
            #expect(try await FaultServer.hits(key).count == 1)
        }
    }
}
