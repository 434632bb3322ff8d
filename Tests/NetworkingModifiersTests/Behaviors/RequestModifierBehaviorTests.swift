import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `RequestModifierBehavior` and `HeadersBehavior` alone: hooks and `intercept` called directly.
@Suite struct RequestModifierBehaviorTests {
    @Test func theClosureMayChangeAnythingInTheRequest() async throws {
        let behavior: RequestModifierBehavior = .modifyRequest { request in
            request.headerFields["X-Signature"] = "abc"
            request.url = request.url?.appendingPathComponent("v2")
            request.method = .put
        }
        let modified = try await behavior.modify(request: BehaviorFakes.request, context: RequestContext())
        #expect(modified.headerFields["X-Signature"] == "abc")
        #expect(modified.url?.absoluteString == "https://api.example.test/v1/items/v2")
        #expect(modified.method == .put)
    }

    @Test func theClosureRunsOnEveryPassSoEachAttemptIsModifiedAfresh() async throws {
        let passes = LockedBox(0)
        let behavior = RequestModifierBehavior { request in
            let pass = passes.withLock {
                $0 += 1
                return $0
            }
            request.headerFields["X-Attempt"] = "\(pass)"
        }
        let sent = LockedBox<[String?]>([])
        let next: NextHandler = { request in
            sent.withLock { $0.append(request.headerFields["X-Attempt"]) }
            return BehaviorFakes.response(to: request)
        }
        for _ in 0..<3 {
            _ = try await behavior.intercept(BehaviorFakes.request, context: RequestContext(), next: next)
        }
        #expect(sent.current == ["1", "2", "3"])
    }

    @Test func theClosureMayAwait() async throws {
        actor Signer {
            func signature(for request: HTTPRequest) -> String { "sig:\(request.url?.path ?? "")" }
        }
        let signer = Signer()
        let behavior = RequestModifierBehavior { request in
            request.headerFields["X-Signature"] = await signer.signature(for: request)
        }
        let modified = try await behavior.modify(request: BehaviorFakes.request, context: RequestContext())
        #expect(modified.headerFields["X-Signature"] == "sig:/v1/items")
    }

    @Test func aThrowingClosureFailsTheCallAsABehaviorErrorAndSendsNothing() async throws {
        let behavior = RequestModifierBehavior { _ in throw TestError("no signing key") }
        let (error, sends) = try await BehaviorFakes.failureInChain(behavior)
        #expect(error?.kind == .behavior("RequestModifierBehavior"))
        #expect(error?.underlyingError as? TestError == TestError("no signing key"))
        #expect(sends == 0)
    }

    @Test func theClosureMayDeliberatelyReplaceAHeaderTheRequestSetItself() async throws {
        var request = BehaviorFakes.request
        request.headerFields["Accept"] = "request"
        let behavior = RequestModifierBehavior { $0.headerFields["Accept"] = "modifier" }
        let modified = try await behavior.modify(
            request: request, context: RequestContext(explicitHeaderNames: ["accept"]))
        #expect(modified.headerFields["Accept"] == "modifier")
    }

    @Test func headersAreAddedToTheRequestSentOn() async throws {
        let behavior: HeadersBehavior = .headers(["Accept": "application/json", "API-Version": "2"])
        let sent = LockedBox<HTTPRequest?>(nil)
        _ = try await behavior.intercept(BehaviorFakes.request, context: RequestContext()) { request in
            sent.withLock { $0 = request }
            return BehaviorFakes.response(to: request)
        }
        #expect(sent.current?.headerFields["accept"] == "application/json")
        #expect(sent.current?.headerFields["API-Version"] == "2")
    }

    @Test func headersReplaceAnOuterValueButNeverOneTheRequestSetItself() async throws {
        var request = BehaviorFakes.request
        request.headerFields["X-Client"] = "outer"
        request.headerFields["Accept"] = "request"
        let sent = LockedBox<HTTPRequest?>(nil)
        _ = try await HeadersBehavior(["x-client": "inner", "ACCEPT": "behavior"]).intercept(
            request, context: RequestContext(explicitHeaderNames: ["Accept"])
        ) { request in
            sent.withLock { $0 = request }
            return BehaviorFakes.response(to: request)
        }
        let fields = try #require(sent.current?.headerFields)
        #expect(fields[values: "x-client"] == ["inner"])
        #expect(fields[values: .accept] == ["request"])
    }

    @Test func aNameGivenInSeveralCasesKeepsOneDeterministicValue() {
        let behavior = HeadersBehavior(["X-ID": "upper", "x-id": "lower", "X-Id": "mixed", "Other": "1"])
        #expect(behavior.additionalHeaders == ["x-id": "lower", "Other": "1"])
    }

    @Test func noHeadersChangeNothing() async throws {
        let modified = try await HeadersBehavior([:]).intercept(
            BehaviorFakes.request, context: RequestContext()
        ) { request in
            #expect(request == BehaviorFakes.request)
            return BehaviorFakes.response(to: request)
        }
        #expect(modified.0.status.code == 200)
    }
}
