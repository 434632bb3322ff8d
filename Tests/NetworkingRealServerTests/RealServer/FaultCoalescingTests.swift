import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// `CoalescingBehavior` over the real transport: the fault server counts what reached it. `/hold` answers after
    /// its delay unless the client closes the connection first, which it records under `<key>/closed`.
    @Suite struct FaultCoalescingTests {
        private static func hold(_ key: String, authorization: String? = nil) -> NetworkRequest<Data> {
            var headers: HTTPFields = [:]
            if let authorization { headers[.authorization] = authorization }
            return NetworkRequest<Data>(path: "/hold", query: Faults.query(key, ["ms": "1500"]), headers: headers)
        }

        private static func waiters(_ behavior: CoalescingBehavior) -> Int {
            behavior.table.calls.reduce(0) { $0 + $1.waiterCount }
        }

        /// Polls (real time, bounded) until `condition` holds.
        private static func settle(_ what: String, _ condition: () async throws -> Bool) async throws {
            let deadline = ContinuousClock.now + .seconds(5)
            while try await !condition() {
                guard ContinuousClock.now < deadline else { throw FaultServerError("never happened: \(what)") }
                try await Task.sleep(for: .milliseconds(5))
            }
        }

        @Test func twentyIdenticalGETsInFlightReachTheServerOnce() async throws {
            let key = FaultServer.newKey("coalesce-20")
            let coalescing = CoalescingBehavior()
            let client = try await FaultServer.client(behavior: coalescing)
            let tasks = (0..<20).map { _ in Task { try await client.send(Self.hold(key)) } }
            try await Self.settle("20 callers waiting") { Self.waiters(coalescing) == 20 }
            for task in tasks { #expect(try await task.value == Data(#"{"held_ms": 1500}"#.utf8)) }
            #expect(try await FaultServer.hits(key).count == 1)
            #expect(coalescing.table.calls.isEmpty)
        }

        @Test func eachAuthorizationValueGetsACallOfItsOwn() async throws {
            let key = FaultServer.newKey("coalesce-auth")
            let coalescing = CoalescingBehavior()
            let client = try await FaultServer.client(behavior: coalescing)
            let tokens = (0..<20).map { "Bearer user-\($0 % 4)" }
            let tasks = tokens.map { token in Task { try await client.send(Self.hold(key, authorization: token)) } }
            try await Self.settle("20 callers waiting") { Self.waiters(coalescing) == 20 }
            for task in tasks { _ = try await task.value }
            let hits = try await FaultServer.hits(key)
            #expect(hits.count == 4)
            #expect(Set(hits.requests.compactMap { $0.headers["authorization"] }) == Set(tokens))
        }

        @Test func cancellingNineteenOfTwentyStillMakesOneHitAndTheLastGetsTheAnswer() async throws {
            let key = FaultServer.newKey("coalesce-19")
            let coalescing = CoalescingBehavior()
            let client = try await FaultServer.client(behavior: coalescing)
            let tasks = (0..<20).map { _ in Task { try await client.send(Self.hold(key)) } }
            try await Self.settle("20 callers waiting, 1 hit") {
                guard Self.waiters(coalescing) == 20 else { return false }
                return try await FaultServer.hits(key).count == 1
            }
            // The first caller, whose chain sends the shared call, is among the cancelled.
            let start = ContinuousClock.now
            for task in tasks.prefix(19) { task.cancel() }
            for task in tasks.prefix(19) {
                guard case .failure(let error) = await task.result else {
                    Issue.record("a cancelled caller got an answer")
                    continue
                }
                #expect(error is CancellationError)
            }
            #expect(ContinuousClock.now - start < .milliseconds(1000))  // before the server's 1.5 s answer
            #expect(try await tasks[19].value == Data(#"{"held_ms": 1500}"#.utf8))
            #expect(try await FaultServer.hits(key).count == 1)
            #expect(try await FaultServer.hits(key + "/closed").count == 0)
        }

        @Test func cancellingEveryCallerClosesTheSharedConnection() async throws {
            let key = FaultServer.newKey("coalesce-all")
            let coalescing = CoalescingBehavior()
            let client = try await FaultServer.client(behavior: coalescing)
            let tasks = (0..<20).map { _ in Task { try await client.send(Self.hold(key)) } }
            try await Self.settle("20 callers waiting, 1 hit") {
                guard Self.waiters(coalescing) == 20 else { return false }
                return try await FaultServer.hits(key).count == 1
            }
            for task in tasks { task.cancel() }
            for task in tasks { #expect((try? await task.value) == nil) }
            #expect(coalescing.table.calls.isEmpty)
            // The server sees the client close the connection before its 1.5 s answer.
            try await Self.settle("the server saw the close") {
                (try await FaultServer.hits(key + "/closed").count) == 1
            }
            #expect(try await FaultServer.hits(key).count == 1)
        }
    }
}
