import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// 401 → refresh → replay against the fault server's `/auth?token=T`, which accepts only `Bearer T`
    /// (Tests/README.md F31): one refresh for many calls, one replay per call, and the hits to prove it.
    @Suite struct FaultAuthTests {
        /// Counts refreshes and hands out `token`.
        final class Refresher: Sendable {
            let token: String
            private let count = LockedBox(0)
            init(_ token: String) { self.token = token }
            var refreshes: Int { count.current }

            func behavior(initial: String) -> TokenRefreshBehavior {
                .tokenRefresh(initial: AccessCredential(token: initial)) { [self] _ in
                    count.withLock { $0 += 1 }
                    return AccessCredential(token: token)
                }
            }
        }

        @Test func rejectedTokenIsRefreshedOnceAndTheCallReplayed() async throws {
            let key = FaultServer.newKey("auth-refresh")
            let refresher = Refresher("fresh")
            let client = try await FaultServer.client(behavior: refresher.behavior(initial: "stale"))
            let answer = try await client.send(
                NetworkRequest<[String: Bool]>(path: "/auth", query: Faults.query(key, ["token": "fresh"])))
            #expect(answer == ["authorized": true])
            #expect(refresher.refreshes == 1)
            let hits = try await FaultServer.hits(key)
            #expect(hits.requests.map { $0.headers["authorization"] } == ["Bearer stale", "Bearer fresh"])
        }

        @Test func hundredParallelRejectionsShareOneRefresh() async throws {
            let key = FaultServer.newKey("auth-parallel")
            let refresher = Refresher("fresh")
            let client = try await FaultServer.client(behavior: refresher.behavior(initial: "stale"))
            let request = NetworkRequest<[String: Bool]>(path: "/auth", query: Faults.query(key, ["token": "fresh"]))
            let successes = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<100 { group.addTask { (try? await client.send(request)) == ["authorized": true] } }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(successes == 100)
            #expect(refresher.refreshes == 1)
            let tokens = try await FaultServer.hits(key).requests.map { $0.headers["authorization"] ?? "" }
            #expect(tokens.filter { $0 == "Bearer fresh" }.count == 100)
            #expect(tokens.filter { $0 == "Bearer stale" }.count <= 100)
            #expect(tokens.allSatisfy { $0 == "Bearer fresh" || $0 == "Bearer stale" })
        }

        @Test func aServerRejectingEveryTokenGetsOneReplayNotALoop() async throws {
            let key = FaultServer.newKey("auth-loop")
            let refresher = Refresher("also-wrong")
            let client = try await FaultServer.client(behavior: refresher.behavior(initial: "stale"))
            let error = try await expectNetworkError {
                try await client.send(
                    NetworkRequest<[String: Bool]>(path: "/auth", query: Faults.query(key, ["token": "right"])))
            }
            #expect(error?.kind == .unacceptableStatus(401))
            #expect(error?.response?.headerFields["WWW-Authenticate"] == "Bearer")
            #expect(refresher.refreshes == 1)
            #expect(try await FaultServer.hits(key).count == 2)
        }

        @Test func rejectedPOSTIsReplayedOnceWithTheSameBody() async throws {
            // The server refused the first POST without acting on it, so replaying it once is safe.
            let key = FaultServer.newKey("auth-post")
            let refresher = Refresher("fresh")
            let client = try await FaultServer.client(
                behavior: CombinedBehavior([.retry(.default, clock: TestClock()), refresher.behavior(initial: "stale")])
            )
            _ = try await client.send(
                NetworkRequest<[String: Bool]>(
                    .post, path: "/auth", query: Faults.query(key, ["token": "fresh"]), body: .json(["amount": 10])))
            let hits = try await FaultServer.hits(key)
            #expect(hits.count == 2)
            #expect(hits.requests.map(\.body) == [#"{"amount":10}"#, #"{"amount":10}"#])
        }

        @Test func aSlowRefreshEndsAtTheCallsDeadlineAndNothingIsSent() async throws {
            // A refresher taking 4 s under a 1 s deadline: the call ends at the deadline, not when the refresh does.
            let key = FaultServer.newKey("slow-refresh")
            let auth = TokenRefreshBehavior.tokenRefresh(initial: nil) { _ in
                try await Task.sleep(for: .seconds(4))
                return AccessCredential(token: "late")
            }
            let client = NetworkClient(
                configuration: .init(
                    baseURL: try await FaultServer.url(), transport: TestTransport.make(), behavior: auth,
                    deadline: .seconds(1)))
            let started = ContinuousClock.now
            let error = try await expectNetworkError {
                try await client.send(NetworkRequest<Data>(path: "/auth", query: Faults.query(key, ["token": "late"])))
            }
            let elapsed = ContinuousClock.now - started
            #expect(error?.kind == .timedOut(.call))
            #expect(elapsed >= .milliseconds(900) && elapsed < .seconds(3), "ended after \(elapsed)")
            #expect(try await FaultServer.hits(key).count == 0)
        }

        @Test func aRefresherThatNeverReturnsEndsAtTheAttemptTimeout() async throws {
            let key = FaultServer.newKey("stuck-refresh")
            let auth = TokenRefreshBehavior.tokenRefresh(initial: nil) { _ in
                try await Task.sleep(for: .seconds(3600))
                return AccessCredential(token: "never")
            }
            let client = NetworkClient(
                configuration: .init(
                    baseURL: try await FaultServer.url(), transport: TestTransport.make(), behavior: auth,
                    timeout: .milliseconds(500), deadline: nil))
            let started = ContinuousClock.now
            let error = try await expectNetworkError {
                try await client.send(NetworkRequest<Data>(path: "/auth", query: Faults.query(key, ["token": "x"])))
            }
            let elapsed = ContinuousClock.now - started
            #expect(error?.kind == .timedOut(.attempt))
            #expect(elapsed >= .milliseconds(450) && elapsed < .seconds(3), "ended after \(elapsed)")
            #expect(try await FaultServer.hits(key).count == 0)
        }
    }
}
