import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `AuthorizationBehavior` alone: `modify` and `intercept` called directly, with fake `next` closures.
@Suite struct AuthorizationBehaviorTests {
    @Test(arguments: [
        (AuthorizationScheme.bearer, "Authorization", "Bearer t0k3n"),
        (AuthorizationScheme.basic, "Authorization", "Basic dDBrM24="),
        (AuthorizationScheme.custom(header: "X-API-Key"), "X-API-Key", "t0k3n"),
        (AuthorizationScheme.custom(header: "Authorization", prefix: "Token"), "Authorization", "Token t0k3n"),
        (AuthorizationScheme.custom(header: "X-Auth", prefix: ""), "X-Auth", "t0k3n"),
    ])
    func eachSchemeSetsItsHeaderFromTheStore(scheme: AuthorizationScheme, header: String, value: String) async throws {
        // Given
        let behavior = AuthorizationBehavior(scheme, store: InMemoryTokenStore("t0k3n"))
        // When
        let modified = try await behavior.modify(request: BehaviorFakes.request, context: RequestContext())
        // Then
        #expect(modified.headerFields[HTTPField.Name(header)] == value)
        #expect(modified.headerFields.count == 1)
    }

    @Test func theStoreIsReadOnEveryAttemptSoARetryUsesTheNewToken() async throws {
        // Given: an outer "retry" passes the same request twice; the token changes in between.
        let store = InMemoryTokenStore("first")
        let behavior: AuthorizationBehavior = .authorization(.bearer, store: store)
        let sent = LockedBox<[String?]>([])
        let next: NextHandler = { request in
            sent.withLock { $0.append(request.headerFields["Authorization"]) }
            return BehaviorFakes.response(to: request)
        }
        // When
        _ = try await behavior.intercept(BehaviorFakes.request, context: RequestContext(), next: next)
        store.set("second")
        _ = try await behavior.intercept(BehaviorFakes.request, context: RequestContext(), next: next)
        // Then
        #expect(sent.current == ["Bearer first", "Bearer second"])
    }

    @Test func theClosureFactoryAsksTheClosureOnEveryAttempt() async throws {
        let reads = LockedBox(0)
        let behavior: AuthorizationBehavior = .authorization(.bearer) {
            reads.withLock {
                $0 += 1
                return "token-\($0)"
            }
        }
        let first = try await behavior.modify(request: BehaviorFakes.request, context: RequestContext())
        let second = try await behavior.modify(request: first, context: RequestContext())
        #expect(reads.current == 2)
        #expect(second.headerFields["Authorization"] == "Bearer token-2")
    }

    @Test func anExistingValueIsReplacedNeverAppended() async throws {
        // Given: the header from a previous attempt, and a second authorization behavior in the chain.
        var request = BehaviorFakes.request
        request.headerFields["authorization"] = "Bearer stale"
        let chain = CombinedBehavior([
            AuthorizationBehavior(store: InMemoryTokenStore("outer")),
            AuthorizationBehavior(store: InMemoryTokenStore("inner")),
        ])
        let sent = LockedBox<HTTPRequest?>(nil)
        // When
        _ = try await chain.intercept(request, context: RequestContext()) { request in
            sent.withLock { $0 = request }
            return BehaviorFakes.response(to: request)
        }
        // Then
        let fields = try #require(sent.current?.headerFields)
        #expect(fields[values: .authorization] == ["Bearer inner"])
    }

    @Test(arguments: [nil, ""] as [String?])
    func noTokenMeansNoHeader(token: String?) async throws {
        let behavior = AuthorizationBehavior(store: ClosureTokenStore { token })
        let modified = try await behavior.modify(request: BehaviorFakes.request, context: RequestContext())
        #expect(modified.headerFields["Authorization"] == nil)
        #expect(modified == BehaviorFakes.request)
    }

    @Test func aHeaderTheRequestSetItselfIsLeftAlone() async throws {
        var request = BehaviorFakes.request
        request.headerFields["Authorization"] = "Basic bG9naW46b25seQ=="
        let reads = LockedBox(0)
        let behavior = AuthorizationBehavior(
            store: ClosureTokenStore {
                reads.withLock { $0 += 1 }
                return "session"
            })
        let modified = try await behavior.modify(
            request: request, context: RequestContext(explicitHeaderNames: ["Authorization"]))
        #expect(modified.headerFields["Authorization"] == "Basic bG9naW46b25seQ==")
        #expect(reads.current == 0)
    }

    @Test func aStoreThatThrowsFailsTheCallAsABehaviorErrorAndSendsNothing() async throws {
        // Given
        let behavior = AuthorizationBehavior(store: ClosureTokenStore { throw TestError("keychain locked") })
        // When: run through a chain, which names the failing behavior as the client does.
        let (error, sends) = try await BehaviorFakes.failureInChain(behavior)
        // Then
        #expect(error?.kind == .behavior("AuthorizationBehavior"))
        #expect(error?.underlyingError as? TestError == TestError("keychain locked"))
        #expect(sends == 0)
        // And alone, the behavior lets the store's own error out.
        await #expect(throws: TestError("keychain locked")) {
            try await behavior.modify(request: BehaviorFakes.request, context: RequestContext())
        }
    }

    @Test func aStoreCancelledWhileReadingRethrowsCancellationUnwrapped() async throws {
        let behavior = AuthorizationBehavior(store: ClosureTokenStore { throw CancellationError() })
        await #expect(throws: CancellationError.self) {
            try await CombinedBehavior([behavior]).intercept(
                BehaviorFakes.request, context: RequestContext(), next: BehaviorFakes.ok)
        }
    }

    @Test func basicAuthorizationEncodesUserAndPasswordAsUTF8Base64() async throws {
        let behavior: AuthorizationBehavior = .basicAuthorization(user: "ada", password: "pä:ss wörd")
        let modified = try await behavior.modify(request: BehaviorFakes.request, context: RequestContext())
        let value = try #require(modified.headerFields["Authorization"])
        #expect(value.hasPrefix("Basic "))
        let decoded = Data(base64Encoded: String(value.dropFirst("Basic ".count)))
        #expect(decoded.map { String(decoding: $0, as: UTF8.self) } == "ada:pä:ss wörd")
    }

    @Test func aBasicUserWithAColonIsRefusedWithoutRevealingTheCredential() async throws {
        let behavior: AuthorizationBehavior = .basicAuthorization(user: "ada:admin", password: "hunter22")
        let error = try await expectNetworkError {
            try await CombinedBehavior([behavior]).intercept(
                BehaviorFakes.request, context: RequestContext(), next: BehaviorFakes.ok)
        }
        #expect(error?.kind == .behavior("AuthorizationBehavior"))
        #expect(error?.underlyingError is AuthorizationScheme.InvalidCredential)
        #expect(error.map { "\($0)".contains("hunter22") } == false)
        #expect(throws: AuthorizationScheme.InvalidCredential.self) {
            try AuthorizationScheme.basicCredential(user: "a:b", password: "c")
        }
    }

    @Test func theDefaultSchemeIsBearerAndTheInMemoryStoreCanBeCleared() async throws {
        let store = InMemoryTokenStore("abc")
        let behavior = AuthorizationBehavior(store: store)
        #expect(behavior.scheme == .bearer)
        store.set(nil)
        let modified = try await behavior.modify(request: BehaviorFakes.request, context: RequestContext())
        #expect(modified.headerFields["Authorization"] == nil)
    }
}
