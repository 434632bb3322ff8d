import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The chain orders behaviors by `BehaviorPlacement`, whatever order they are given in.
@Suite struct BehaviorPlacementTests {
    /// One recording behavior per placement, named after it.
    static func recorders(_ log: HookTrace) -> [HookTraceBehavior] {
        BehaviorPlacement.all.map { HookTraceBehavior($0.name, log: log, placement: $0) }
    }

    /// Every placement's name, outermost first.
    static let expected = BehaviorPlacement.all.map { "\($0.name).beforeSend" }

    @Test(arguments: [0, 1, 2, 3, 4, 5, 6, 7])
    func anyOrderRunsInPlacementOrder(seed: UInt64) async throws {
        let log = HookTrace()
        var generator = BehaviorFakes.SeededGenerator(seed: seed)
        let shuffled: [any RequestBehavior] = Self.recorders(log).shuffled(using: &generator)
        try await makeClient(transport: answering(), behavior: CombinedBehavior(shuffled))
            .send(NetworkRequest<Void>(path: "/x"))
        #expect(log.events.filter { $0.hasSuffix(".beforeSend") } == Self.expected)
    }

    @Test func perRequestBehaviorsMergeByPlacementAndFollowClientWideOnesOfTheSamePlacement() async throws {
        let log = HookTrace()
        let client = try makeClient(
            transport: answering(),
            behavior: CombinedBehavior([
                HookTraceBehavior("client.cache", log: log, placement: .cache),
                HookTraceBehavior("client.modification", log: log),
            ]))
        try await client.send(
            NetworkRequest<Void>(path: "/x"),
            behavior: CombinedBehavior([
                HookTraceBehavior("call.modification", log: log),
                HookTraceBehavior("call.observation", log: log, placement: .observation),
            ]))
        #expect(
            log.events.filter { $0.hasSuffix(".beforeSend") } == [
                "call.observation.beforeSend", "client.modification.beforeSend", "call.modification.beforeSend",
                "client.cache.beforeSend",
            ])
    }

    @Test func theWireStageSeesTheDefaultAcceptAndTheClientsSensitiveNames() async throws {
        let seen = LockedBox<HTTPRequest?>(nil)
        struct Spy: RequestBehavior {
            let seen: LockedBox<HTTPRequest?>
            var placement: BehaviorPlacement { .coalescing }
            func beforeSend(request: HTTPRequest, context: RequestContext) async { seen.withLock { $0 = request } }
        }
        let client = NetworkClient(
            configuration: .init(
                baseURL: URL(string: "https://api.test")!, transport: answering(),
                behavior: CombinedBehavior([Spy(seen: seen), .headers(["X-Tenant-Key": "t"])]),
                sensitiveHeaderNames: ["X-Tenant-Key"]))
        _ = try await client.response(for: NetworkRequest<User?>(path: "/x"))
        let request = try #require(seen.current)
        #expect(request.headerFields[.accept] == "application/json")
        #expect(request.headerFields.isSensitive("X-Tenant-Key"))
    }

    @Test func placementsAreOrderedAndGroupedInStages() {
        let ranks = BehaviorPlacement.all
        #expect(zip(ranks, ranks.dropFirst()).allSatisfy { $0 < $1 })
        #expect(ranks.map(\.stage) == ranks.map(\.stage).sorted())
        #expect(ranks.filter { $0.stage == .wire } == [.cache, .coalescing])
    }
}
