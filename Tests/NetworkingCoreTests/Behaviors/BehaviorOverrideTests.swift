import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Per-request opt-out: removing or replacing a client-wide behavior by its type.
@Suite struct BehaviorOverrideTests {
    /// Behaviors of distinct types that log their name when they pass the request on.
    struct Auth: RequestBehavior {
        let log: HookTrace
        func beforeSend(request: HTTPRequest, context: RequestContext) async { log.append("auth") }
    }
    struct Retry: RequestBehavior {
        let log: HookTrace
        var label = "retry"
        func beforeSend(request: HTTPRequest, context: RequestContext) async { log.append(label) }
    }
    struct Logging: RequestBehavior {
        let log: HookTrace
        func beforeSend(request: HTTPRequest, context: RequestContext) async { log.append("logging") }
    }
    struct Spinner: RequestBehavior {
        let log: HookTrace
        func beforeSend(request: HTTPRequest, context: RequestContext) async { log.append("spinner") }
    }

    func run(clientWide: (HookTrace) -> any RequestBehavior, perRequest: (HookTrace) -> any RequestBehavior)
        async throws
        -> [String]
    {
        let log = HookTrace()
        let client = try makeClient(transport: answering(), behavior: clientWide(log))
        try await client.send(NetworkRequest<Void>(path: "/x"), behavior: perRequest(log))
        return log.events
    }

    func standard(_ log: HookTrace) -> any RequestBehavior {
        CombinedBehavior([Logging(log: log), Retry(log: log), Auth(log: log)])
    }

    @Test func withoutRemovesTheClientWideBehaviorOfThatType() async throws {
        let events = try await run(clientWide: standard, perRequest: { _ in .without(Auth.self) })
        #expect(events == ["logging", "retry"])
    }

    @Test func replacingKeepsTheReplacedBehaviorsPlaceInTheChain() async throws {
        let events = try await run(
            clientWide: standard,
            perRequest: { log in
                CombinedBehavior([Spinner(log: log), .replacing(Retry.self, with: Retry(log: log, label: "no-retry"))])
            })
        #expect(events == ["logging", "no-retry", "auth", "spinner"])
    }

    @Test func replacingAnAbsentTypeRunsTheReplacementWhereTheOverrideStands() async throws {
        let events = try await run(
            clientWide: { log in Logging(log: log) },
            perRequest: { log in CombinedBehavior([.replacing(Retry.self, with: Retry(log: log)), Spinner(log: log)]) })
        #expect(events == ["logging", "retry", "spinner"])
    }

    @Test func withoutAnAbsentTypeChangesNothing() async throws {
        let events = try await run(clientWide: standard, perRequest: { _ in .without(Spinner.self) })
        #expect(events == ["logging", "retry", "auth"])
    }

    @Test func overridesReachIntoNestedCombinations() async throws {
        let events = try await run(
            clientWide: { log in
                CombinedBehavior([Logging(log: log), CombinedBehavior([Retry(log: log), Auth(log: log)])])
            },
            perRequest: { _ in CombinedBehavior([CombinedBehavior([.without(Retry.self)]), .without(Logging.self)]) })
        #expect(events == ["auth"])
    }

    @Test func anOverrideInTheClientWideBehaviorIsRefusedWhenTheClientIsBuilt() throws {
        // An override there could act on nothing: the mistake is reported where the client is configured.
        let log = HookTrace()
        let error = try expectError(BehaviorConflictError.self) {
            try makeClient(transport: answering(), behavior: CombinedBehavior([.without(Auth.self), Auth(log: log)]))
        }
        #expect(error?.reason == .overrideOutsideCall("Auth"))
        #expect(error?.description.contains("client-wide") == true)
        #expect(error?.description.contains(".without(") == true)
    }

    @Test func withoutCredentialsRemovesAuthorizationAndTokenRefreshAlike() async throws {
        // Given a client with both credential behaviors and a retry
        let transport = answering()
        let client = try makeClient(
            transport: transport,
            behavior: CombinedBehavior([
                .retry(clock: TestClock()), .authorization(.bearer) { "a-token" },
                .tokenRefresh(initial: AccessCredential(token: "r-token")) { _ in AccessCredential(token: "new") },
            ]))
        // When one type is removed, the other still sends its token
        try await client.send(NetworkRequest<Void>(path: "/login"), behavior: .without(AuthorizationBehavior.self))
        #expect(transport.lastRequest?.header("Authorization") == "Bearer r-token")
        // When the family is removed, no credential goes out
        try await client.send(NetworkRequest<Void>(path: "/login"), behavior: .without(.credentials))
        #expect(transport.lastRequest?.header("Authorization") == nil)
        #expect(BehaviorFamily.credentials.description == "credentials")
    }

    @Test func replacingAFamilyPutsOneReplacementInThePlaceOfTheFirstMember() async throws {
        let transport = answering()
        let client = try makeClient(
            transport: transport,
            behavior: CombinedBehavior([
                .authorization(.bearer) { "a-token" },
                .tokenRefresh(initial: AccessCredential(token: "r-token")) { _ in AccessCredential(token: "new") },
            ]))
        let counting = CountingHeader()
        try await client.send(
            NetworkRequest<Void>(path: "/x"), behavior: BehaviorOverride(.credentials, action: .replace(with: counting))
        )
        #expect(transport.lastRequest?.header("Authorization") == nil)
        #expect(transport.lastRequest?.header("X-Passes") == "1")
    }

    /// Counts how often it is passed, in a header.
    struct CountingHeader: RequestBehavior {
        func modify(request: HTTPRequest, context: RequestContext) async throws -> HTTPRequest {
            var request = request
            let passes = Int(request.headerFields["X-Passes"] ?? "0") ?? 0
            request.headerFields["X-Passes"] = String(passes + 1)
            return request
        }
    }

    @Test func withoutRetriesRemovesTheRetryBehavior() async throws {
        let transport = MockTransport().stub(.get, "/x", .serviceUnavailable(retryAfter: 0), .status(204))
        let client = try makeClient(transport: transport, behavior: .retry(clock: TestClock()))
        let error = try await expectNetworkError {
            try await client.send(NetworkRequest<Void>(path: "/x"), behavior: .without(.retries))
        }
        #expect(error?.kind == .unacceptableStatus(503))
        #expect(transport.recordedRequests.count == 1)
    }

    @Test func withoutRetriesRemovesHedgingToo() async throws {
        let transport = MockTransport().stub(.get, "/x", .serviceUnavailable(retryAfter: 0), .status(204))
        let hedging = HedgingBehavior.hedging(try HedgingSettings(delay: .fixed(.seconds(30))))
        let client = try makeClient(transport: transport, behavior: hedging)
        let error = try await expectNetworkError {
            try await client.send(NetworkRequest<Void>(path: "/x"), behavior: .without(.retries))
        }
        #expect(error?.kind == .unacceptableStatus(503))
        #expect(transport.recordedRequests.count == 1)
    }

    @Test func theOverrideOnlyAffectsItsOwnCall() async throws {
        let log = HookTrace()
        let client = try makeClient(transport: answering(), behavior: standard(log))
        try await client.send(NetworkRequest<Void>(path: "/login"), behavior: .without(Auth.self))
        try await client.send(NetworkRequest<Void>(path: "/me"))
        #expect(log.events == ["logging", "retry", "logging", "retry", "auth"])
    }

    @Test func runDirectlyAnOverrideJustPassesTheRequestOn() async throws {
        let override = BehaviorOverride(Auth.self, action: .remove)
        let request = HTTPRequest(url: URL(string: "https://x.test/a")!)
        let (response, _) = try await override.intercept(request, context: RequestContext()) { request in
            (HTTPResponse(status: 204), .data(Data()))
        }
        #expect(response.status.code == 204)
    }
}
