import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// Many calls at once through the full behavior chain against the fault server's `/ok` (Tests/README.md F34, F22
    /// mass cancel). Bounded: each call has a 20 s deadline, so a hang shows up as a wrong outcome, not a stuck run.
    @Suite struct StressTests {
        static let callCount = 1_000

        /// Activity counter, logging, retry and authorization, as the README recommends, plus a counter of outcomes.
        struct Chain {
            let activity = InMemoryActivityCounterStore()
            let transitions = LockedBox<[Bool]>([])
            let logLines = LockedBox(0)
            let outcomes = AttemptCounter()

            var behavior: CombinedBehavior {
                let transitions = self.transitions
                let logLines = self.logLines
                return CombinedBehavior([
                    outcomes,
                    .activityCounter(store: activity) { busy in transitions.withLock { $0.append(busy) } },
                    .logging(to: LogSink { _ in logLines.withLock { $0 += 1 } }),
                    .retry(.default, clock: TestClock()),
                    .authorization(.bearer, store: InMemoryTokenStore("stress-token")),
                ])
            }
        }

        /// `GET /ok` counted under `key`, with a deadline that turns a hang into an error.
        static func okRequest(_ key: String) -> NetworkRequest<[String: Bool]> {
            var request = NetworkRequest<[String: Bool]>(path: "/ok", query: Faults.query(key))
            request.deadline = .seconds(20)
            return request
        }

        @Test func thousandConcurrentCallsThroughTheFullChainAllSucceed() async throws {
            let key = FaultServer.newKey("stress")
            let chain = Chain()
            let client = try await FaultServer.client(behavior: chain.behavior)
            let request = Self.okRequest(key)
            let start = ContinuousClock.now
            let successes = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<Self.callCount {
                    group.addTask { (try? await client.send(request)) == ["ok": true] }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            let elapsed = ContinuousClock.now - start
            print(
                "StressTests: \(Self.callCount) calls through the full chain in \(elapsed), activity \(chain.activity.count)"
            )
            #expect(successes == Self.callCount)
            #expect(chain.activity.count == 0)
            #expect(chain.outcomes.sent == Self.callCount)
            #expect(chain.outcomes.succeeded == Self.callCount)
            #expect(chain.logLines.current == 2 * Self.callCount)
            let transitions = chain.transitions.current
            #expect(transitions.first == true && transitions.last == false)
            #expect(zip(transitions, transitions.dropFirst()).allSatisfy { $0 != $1 }, "busy and idle must alternate")
            let hits = try await FaultServer.hits(key)
            #expect(hits.count == Self.callCount)
            #expect(hits.requests.allSatisfy { $0.headers["authorization"] == "Bearer stress-token" })
            #expect(elapsed < .seconds(60))
        }

        @Test func thousandCancelVersusCompleteRacesEachFinishExactlyOnce() async throws {
            let key = FaultServer.newKey("race")
            let chain = Chain()
            let client = try await FaultServer.client(behavior: chain.behavior)
            let request = Self.okRequest(key)
            // The typical time of one call on this machine, to aim the cancellations at it.
            let warmUp = Self.okRequest(FaultServer.newKey("race-warm-up"))
            let warmUpClient = try await FaultServer.client()
            var samples: [Duration] = []
            for _ in 0..<11 {
                let began = ContinuousClock.now
                _ = try await warmUpClient.send(warmUp)
                samples.append(ContinuousClock.now - began)
            }
            let typical = samples.sorted()[samples.count / 2]
            let start = ContinuousClock.now
            var completed = 0
            var cancelled = 0
            var other: [String] = []
            // Ten calls at a time, each cancelled after 0 to 3 typical call times: cancellation lands before the send,
            // in flight, and after completion.
            for batch in 0..<(Self.callCount / 10) {
                let tasks = (0..<10).map { index in
                    Task { try await client.send(request) }
                        .cancelling(after: typical * (Double((batch * 10 + index) % 31) / 10))
                }
                for task in tasks {
                    switch await task.result {
                    case .success(let value) where value == ["ok": true]: completed += 1
                    case .failure(let error) where error is CancellationError: cancelled += 1
                    case .success(let value): other.append("value \(value)")
                    case .failure(let error): other.append("\(error)")
                    }
                }
            }
            let elapsed = ContinuousClock.now - start
            print(
                "StressTests: \(Self.callCount) races in \(elapsed) (typical call \(typical)): \(completed) completed, \(cancelled) cancelled"
            )
            #expect(completed + cancelled == Self.callCount)
            // How many complete depends on the machine's speed (all were cancelled in one loaded run); the calls
            // cancelled at once (every 31st) always end cancelled.
            #expect(cancelled > 0, "no call was cancelled: typical call \(typical)")
            #expect(other.isEmpty, "unexpected outcomes: \(other.prefix(5))")
            // Exactly one outcome per call reached the outermost behavior, and the counter is back to zero. A call
            // cancelled in the instant its response arrived may look successful to the chain yet throw
            // `CancellationError` to its caller (cancellation wins), never the other way round.
            #expect(chain.outcomes.sent == Self.callCount)
            #expect(chain.outcomes.succeeded + chain.outcomes.failed == Self.callCount)
            #expect(chain.outcomes.succeeded >= completed)
            #expect(chain.activity.count == 0)
            // No call was sent twice: the server saw at most one request per call, and one for every completed call.
            let hits = try await FaultServer.hits(key).count
            #expect(hits >= completed && hits <= Self.callCount, "hits \(hits), completed \(completed)")
            #expect(elapsed < .seconds(60))
        }
    }
}

extension Task where Failure == any Error {
    /// Cancels the task after `delay` (at once when it is zero) and returns it.
    fileprivate func cancelling(after delay: Duration) -> Self {
        let task = self
        Task<Void, Never> {
            if delay > .zero { try? await Task<Never, Never>.sleep(for: delay) }
            task.cancel()
        }
        return self
    }
}
