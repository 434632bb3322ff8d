import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The chain contract of Plugins.md: order, nesting, pairing and header precedence.
@Suite struct BehaviorChainOrderingTests {
    @Test func threeDeepCombinationRunsOutermostFirstAndUnwindsInReverse() async throws {
        let log = HookTrace()
        let behavior = CombinedBehavior([
            HookTraceBehavior("a", log: log), HookTraceBehavior("b", log: log), HookTraceBehavior("c", log: log),
        ])
        try await makeClient(transport: answering(), behavior: behavior).send(NetworkRequest<Void>(path: "/x"))
        #expect(
            log.events == [
                "a.modify", "a.beforeSend", "b.modify", "b.beforeSend", "c.modify", "c.beforeSend",
                "c.afterSuccess(200)", "b.afterSuccess(200)", "a.afterSuccess(200)",
            ])
    }

    @Test func perRequestBehaviorRunsInsideTheClientWideOne() async throws {
        let log = HookTrace()
        let client = try makeClient(
            transport: answering(),
            behavior: CombinedBehavior([HookTraceBehavior("client1", log: log), HookTraceBehavior("client2", log: log)])
        )
        try await client.send(NetworkRequest<Void>(path: "/x"), behavior: HookTraceBehavior("call", log: log))
        #expect(
            log.events.filter { $0.hasSuffix("beforeSend") } == [
                "client1.beforeSend", "client2.beforeSend", "call.beforeSend",
            ])
        #expect(
            log.events.filter { $0.contains("after") } == [
                "call.afterSuccess(200)", "client2.afterSuccess(200)", "client1.afterSuccess(200)",
            ])
    }

    @Test func nestedCombinationsFlattenInOrder() async throws {
        let log = HookTrace()
        let behavior = CombinedBehavior([
            CombinedBehavior([HookTraceBehavior("a", log: log), EmptyBehavior()]),
            CombinedBehavior([CombinedBehavior([HookTraceBehavior("b", log: log)]), HookTraceBehavior("c", log: log)]),
        ])
        try await makeClient(transport: answering(), behavior: behavior).send(NetworkRequest<Void>(path: "/x"))
        #expect(log.events.filter { $0.hasSuffix("beforeSend") } == ["a.beforeSend", "b.beforeSend", "c.beforeSend"])
    }

    /// Built-in request rewriters in a row (authorization, request modifier, headers) share one level of the chain:
    /// each still sees what the ones outside it wrote, and a behavior of another kind between them still sees only
    /// the rewrites outside it.
    @Test func requestRewritersInARowRunInOrderAroundAnOtherBehavior() async throws {
        // Given authorization and a modifier, a recording behavior, then headers (all in or before modification)
        let seen = LockedBox<HTTPFields?>(nil)
        let transport = answering()
        let behavior = CombinedBehavior([
            .authorization(.bearer, store: InMemoryTokenStore("t0ken")),
            .modifyRequest { request in
                request.headerFields["X-Seen-Authorization"] = request.headerFields[.authorization] ?? "none"
            },
            HeaderRecorder(seen: seen),
            .headers(["X-Last": "h"]),
        ])
        // When a call goes through
        try await makeClient(transport: transport, behavior: behavior).send(NetworkRequest<Void>(path: "/x"))
        // Then the rewrites happened in order, and the behavior between them saw only those outside it
        let sent = try #require(transport.requests.last).headerFields
        #expect(sent[.authorization] == "Bearer t0ken")
        #expect(sent["X-Seen-Authorization"] == "Bearer t0ken")
        #expect(sent["X-Last"] == "h")
        #expect(seen.current?["X-Seen-Authorization"] == "Bearer t0ken")
        #expect(seen.current?["X-Last"] == nil)
    }

    @Test func aRewriterThatThrowsAmongOthersIsNamedAndNothingIsSent() async throws {
        // Given a modifier that throws between authorization and headers
        let transport = answering()
        let behavior = CombinedBehavior([
            .authorization(.bearer, store: InMemoryTokenStore("t0ken")),
            .modifyRequest { _ in throw TestError("no signing key") },
            .headers(["X-Last": "h"]),
        ])
        // When a call goes through
        let error = try await expectNetworkError {
            try await makeClient(transport: transport, behavior: behavior).send(NetworkRequest<Void>(path: "/x"))
        }
        // Then it fails as the modifier's error, and nothing was sent
        #expect(error?.kind == .behavior("RequestModifierBehavior"))
        #expect(error?.underlyingError as? TestError == TestError("no signing key"))
        #expect(transport.requests.isEmpty)
    }

    /// Records the header fields of the request it passes on (a behavior of its own kind: not a rewriter).
    struct HeaderRecorder: RequestBehavior {
        let seen: LockedBox<HTTPFields?>

        func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
            HTTPResponse, HTTPResponse.Body
        ) {
            seen.withLock { $0 = request.headerFields }
            return try await next(request)
        }
    }

    enum Outcome: String, CaseIterable, Sendable {
        case success, unacceptableStatus, transportThrows, cancelled
    }

    @Test(arguments: Outcome.allCases)
    func everyBeforeSendIsPairedWithExactlyOneAfterHook(outcome: Outcome) async throws {
        let log = HookTrace()
        let started = AsyncStream<Void>.makeStream()
        let transport = MockTransport { request in
            switch outcome {
            case .success: return (HTTPResponse(status: 200), Data())
            case .unacceptableStatus: return (HTTPResponse(status: 500), Data())
            case .transportThrows: throw URLError(.networkConnectionLost)
            case .cancelled:
                started.continuation.yield()
                try await Task.sleep(for: .seconds(3600))
                return (HTTPResponse(status: 200), Data())
            }
        }
        let client = try makeClient(
            transport: transport,
            behavior: CombinedBehavior([HookTraceBehavior("a", log: log), HookTraceBehavior("b", log: log)]))
        let call = Task {
            try await client.send(NetworkRequest<Void>(path: "/x"), behavior: HookTraceBehavior("c", log: log))
        }
        if outcome == .cancelled {
            var iterator = started.stream.makeAsyncIterator()
            await iterator.next()
            call.cancel()
        }
        _ = await call.result
        for name in ["a", "b", "c"] {
            let before = log.events.filter { $0 == "\(name).beforeSend" }.count
            let after = log.events.filter { $0.hasPrefix("\(name).after") }.count
            #expect(before == 1 && after == 1, "\(name): \(log.events)")
        }
        let expectedLabel: String
        switch outcome {
        case .success: expectedLabel = "afterSuccess(200)"
        case .unacceptableStatus: expectedLabel = "afterFailure(unacceptableStatus(500))"
        case .transportThrows: expectedLabel = "afterFailure(transport(connectionLost))"
        case .cancelled: expectedLabel = "afterFailure(cancelled)"
        }
        #expect(log.events.last == "a.\(expectedLabel)")
    }

    @Test func aBehaviorThatCallsNextTwicePairsTheInnerHooksPerAttempt() async throws {
        struct TwiceOnFailure: RequestBehavior {
            func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
                HTTPResponse, HTTPResponse.Body
            ) {
                do { return try await next(request) } catch { return try await next(request) }
            }
        }
        let log = HookTrace()
        let attempts = LockedCounter()
        let transport = MockTransport { request in
            attempts.increment()
            return (HTTPResponse(status: .init(code: attempts.value == 1 ? 503 : 200)), Data())
        }
        let behavior = CombinedBehavior([
            HookTraceBehavior("outer", log: log), TwiceOnFailure(), HookTraceBehavior("inner", log: log),
        ])
        try await makeClient(transport: transport, behavior: behavior).send(NetworkRequest<Void>(path: "/x"))
        #expect(
            log.events == [
                "outer.modify", "outer.beforeSend",
                "inner.modify", "inner.beforeSend", "inner.afterFailure(unacceptableStatus(503))",
                "inner.modify", "inner.beforeSend", "inner.afterSuccess(200)",
                "outer.afterSuccess(200)",
            ])
    }

    @Test func headerPrecedenceIsRequestThenInnerBehaviorThenOuter() async throws {
        let log = HookTrace()
        let transport = answering()
        let client = try makeClient(
            transport: transport,
            behavior: HookTraceBehavior(
                "client", log: log, additionalHeaders: ["Accept": "client", "X-Client": "1", "X-Shared": "client"]))
        try await client.send(
            NetworkRequest<Void>(path: "/x", headers: ["accept": "request"]),
            behavior: HookTraceBehavior("call", log: log, additionalHeaders: ["X-Shared": "call", "Accept": "call"]))
        let sent = try #require(transport.requests.first)
        #expect(sent.headerFields["Accept"] == "request")
        #expect(sent.headerFields["X-Shared"] == "call")
        #expect(sent.headerFields["X-Client"] == "1")
    }

    @Test func combinedAdditionalHeadersLetTheInnermostWin() {
        let log = HookTrace()
        let combined = CombinedBehavior([
            HookTraceBehavior("a", log: log, additionalHeaders: ["X": "a", "Y": "a"]),
            HookTraceBehavior("b", log: log, additionalHeaders: ["X": "b"]),
        ])
        #expect(combined.additionalHeaders == ["X": "b", "Y": "a"])
    }

    @Test func aBehaviorCanAnswerWithoutCallingNext() async throws {
        struct Offline: RequestBehavior {
            func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
                HTTPResponse, HTTPResponse.Body
            ) {
                (HTTPResponse(status: 200), .data(Data(#"{"id":1,"name":"cached"}"#.utf8)))
            }
        }
        let transport = answering()
        let user = try await makeClient(transport: transport, behavior: Offline()).send(
            NetworkRequest<User>(path: "/u/1"))
        #expect(user.name == "cached")
        #expect(transport.requestCount == 0)
    }

    @Test func contextIsSharedByEveryBehaviorOfOneCallAndUniquePerCall() async throws {
        struct CaptureContext: RequestBehavior {
            let seen: LockedBox<[RequestContext]>
            func beforeSend(request: HTTPRequest, context: RequestContext) async {
                seen.withLock { $0.append(context) }
            }
        }
        let seen = LockedBox<[RequestContext]>([])
        let client = try makeClient(transport: answering(), behavior: CaptureContext(seen: seen))
        try await client.send(
            NetworkRequest<Void>(.post, path: "/a", headers: ["X-Trace": "1"]), behavior: CaptureContext(seen: seen))
        try await client.send(NetworkRequest<Void>(path: "/b"))
        let contexts = seen.current
        #expect(contexts.count == 3)
        #expect(contexts[0].callID == contexts[1].callID)
        #expect(contexts[1].callID != contexts[2].callID)
        #expect(contexts[0].requestName == "POST /a")
        #expect(contexts[0].explicitHeaderNames == ["x-trace"])
    }

    @Test func callIDsAreDistinctVersionFourUUIDs() async throws {
        struct CaptureID: RequestBehavior {
            let seen: LockedBox<[UUID]>
            func beforeSend(request: HTTPRequest, context: RequestContext) async {
                seen.withLock { $0.append(context.callID) }
            }
        }
        let seen = LockedBox<[UUID]>([])
        let client = try makeClient(transport: answering(), behavior: CaptureID(seen: seen))
        for _ in 0..<2_000 { try await client.send(NetworkRequest<Void>(path: "/x")) }
        let ids = seen.current
        #expect(Set(ids).count == 2_000)
        #expect(ids.allSatisfy { Array($0.uuidString)[14] == "4" && "89AB".contains(Array($0.uuidString)[19]) })
    }
}
