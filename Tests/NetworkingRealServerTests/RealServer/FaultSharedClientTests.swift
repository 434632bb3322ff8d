import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// One shared client, two users (issue: one user's response must never reach another). Coalescing and the HTTP
    /// cache in both modes, with each way a credential can reach the request, in every order the behaviors can be
    /// given in. The fault server's `/whoami` answers with the user its credential names, and counts hits.
    @Suite struct FaultSharedClientTests {
        /// How the two users' calls share, or could share, an answer.
        enum Sharing: String, CaseIterable, Sendable {
            case coalescing, privateCache, sharedCache

            var behavior: any RequestBehavior {
                switch self {
                case .coalescing: CoalescingBehavior()
                case .privateCache: HTTPCacheBehavior(mode: .private)
                case .sharedCache: HTTPCacheBehavior(mode: .shared)
                }
            }
        }

        /// Where the user's credential comes from.
        enum Credential: String, CaseIterable, Sendable {
            /// Per request: `.authorization(.bearer) { user }`.
            case perRequestAuthorization
            /// Per request: a modifier setting a sensitive `X-API-Key`.
            case perRequestModifier
            /// Per request: a cookie jar of the user's own.
            case perRequestCookies
            /// Per request: a token refresh holding the user's token.
            case perRequestTokenRefresh
            /// Client-wide: `.authorization` reading the current user from a task-local value.
            case clientWideAuthorization
            /// Client-wide: a behavior of the app's own setting a sensitive `X-API-Key` from the request's metadata.
            case clientWideModifier

            var isPerRequest: Bool { rawValue.hasPrefix("perRequest") }
        }

        struct Case: Sendable, CustomStringConvertible {
            let sharing: Sharing
            let credential: Credential
            /// The client-wide behaviors, in the order given.
            let order: [String]
            var description: String { "\(sharing) \(credential) [\(order.joined(separator: ", "))]" }
        }

        /// Every sharing behavior, every credential source, every order of the client-wide behaviors.
        static let cases: [Case] = Sharing.allCases.flatMap { sharing in
            Credential.allCases.flatMap { credential in
                let names = credential.isPerRequest ? ["share", "retry"] : ["share", "credential", "retry"]
                return permutations(names).map { Case(sharing: sharing, credential: credential, order: $0) }
            }
        }

        static func permutations(_ items: [String]) -> [[String]] {
            guard items.count > 1 else { return [items] }
            return items.indices.flatMap { index in
                var rest = items
                let first = rest.remove(at: index)
                return permutations(rest).map { [first] + $0 }
            }
        }

        enum CurrentUser {
            @TaskLocal static var name: String?
        }

        enum UserKey: RequestMetadataKey {
            typealias Value = String
        }

        /// An app's own client-wide behavior: the user's API key from the request's metadata, marked sensitive.
        struct UserAPIKey: RequestBehavior {
            func modify(request: HTTPRequest, context: RequestContext) async throws -> HTTPRequest {
                var request = request
                if let user = context.metadata[UserKey.self] { request.headerFields[sensitive: "X-API-Key"] = user }
                return request
            }
        }

        struct WhoAmI: Decodable, Sendable, Equatable {
            let user: String
        }

        static func clientWide(_ testCase: Case, sharing: any RequestBehavior) -> [any RequestBehavior] {
            testCase.order.map { name -> any RequestBehavior in
                switch name {
                case "share": return sharing
                case "retry": return RetryBehavior(clock: TestClock())
                default:
                    return testCase.credential == .clientWideAuthorization
                        ? AuthorizationBehavior.authorization(.bearer) { CurrentUser.name } : UserAPIKey()
                }
            }
        }

        static func perRequest(_ credential: Credential, user: String, url: URL) -> any RequestBehavior {
            switch credential {
            case .perRequestAuthorization:
                return .authorization(.bearer) { user }
            case .perRequestModifier:
                return .modifyRequest { $0.headerFields[sensitive: "X-API-Key"] = user }
            case .perRequestCookies:
                let jar = InMemoryCookieJar()
                let now = Date()
                if let line = SetCookie.parse("user=\(user); Path=/"), let cookie = Cookie(line, from: url, at: now) {
                    jar.save([cookie], at: now)
                }
                return .cookies(jar: jar)
            case .perRequestTokenRefresh:
                return .tokenRefresh(initial: AccessCredential(token: user)) { _ in AccessCredential(token: user) }
            case .clientWideAuthorization, .clientWideModifier:
                return EmptyBehavior()
            }
        }

        /// Sends one `/whoami` as `user`, its credential set as the case says.
        static func call(
            _ client: NetworkClient, _ testCase: Case, user: String, key: String, gate: String?, url: URL
        ) async throws -> WhoAmI {
            var query = Faults.query(key)
            if let gate { query.append(URLQueryItem(name: "gate", value: gate)) }
            var request = NetworkRequest<WhoAmI>(path: "/whoami", query: query)
            request.metadata[UserKey.self] = user
            let behavior = perRequest(testCase.credential, user: user, url: url)
            return try await CurrentUser.$name.withValue(user) {
                try await client.send(request, behavior: behavior)
            }
        }

        @Test(arguments: cases) func bobNeverGetsAlicesAnswer(_ testCase: Case) async throws {
            let url = try await FaultServer.url()
            let key = FaultServer.newKey("shared-\(testCase.sharing)")
            let sharing = testCase.sharing.behavior
            let client = try await FaultServer.client(
                behavior: CombinedBehavior(Self.clientWide(testCase, sharing: sharing)))
            switch testCase.sharing {
            case .coalescing:
                let table = try #require(sharing as? CoalescingBehavior).table
                // Alice twice and Bob twice at once; the server holds every answer until all four wait.
                let gate = FaultServer.newKey("gate")
                let users = ["alice", "alice", "bob", "bob"]
                let tasks = users.map { user in
                    Task { try await Self.call(client, testCase, user: user, key: key, gate: gate, url: url) }
                }
                // Two shared calls of two callers each: the users' calls never merge, each user's two do.
                try await Self.settle { table.calls.count == 2 && table.calls.allSatisfy { $0.waiterCount == 2 } }
                try await Self.release(gate, url: url)
                let answers = try await tasks.asyncMap { try await $0.value.user }
                #expect(answers == users)
                let hits = try await FaultServer.hits(key)
                #expect(hits.count == 2, "\(hits.requests.map(\.headers))")
            case .privateCache, .sharedCache:
                let alice = try await Self.call(client, testCase, user: "alice", key: key, gate: nil, url: url)
                let again = try await Self.call(client, testCase, user: "alice", key: key, gate: nil, url: url)
                let bob = try await Self.call(client, testCase, user: "bob", key: key, gate: nil, url: url)
                #expect([alice.user, again.user, bob.user] == ["alice", "alice", "bob"])
                // Private: alice's second call is hers from the store, bob's goes out. Shared: `max-age=60` on a
                // credentialed request is not storable, so all three go out.
                #expect(try await FaultServer.hits(key).count == (testCase.sharing == .privateCache ? 2 : 3))
            }
        }

        @Test func aSharedCacheSharesOnlyWhatTheServerDeclaredPublic() async throws {
            let key = FaultServer.newKey("shared-public")
            let client = try await FaultServer.client(behavior: HTTPCacheBehavior(mode: .shared))
            func call(_ user: String) async throws -> WhoAmI {
                try await client.send(
                    NetworkRequest<WhoAmI>(
                        path: "/whoami", query: Faults.query(key, ["cache_control": "public, max-age=60"])),
                    behavior: .authorization(.bearer) { user })
            }
            #expect(try await call("alice").user == "alice")
            // RFC 9111 §3.5: the server said `public`; a shared cache may give it to anyone, and does.
            #expect(try await call("bob").user == "alice")
            #expect(try await FaultServer.hits(key).count == 1)
        }

        /// Polls until `condition` holds; fails after 30 s (a guard against a hang, far beyond a passing run).
        static func settle(_ condition: () -> Bool) async throws {
            let guardTime = ContinuousClock.now + .seconds(30)
            while !condition() {
                guard ContinuousClock.now < guardTime else { throw FaultServerError("the callers never joined") }
                try await Task.sleep(for: .milliseconds(5))
            }
        }

        /// Opens `gate`: the held `/whoami` requests answer.
        static func release(_ gate: String, url: URL) async throws {
            let client = NetworkClient(baseURL: url)
            _ = try await client.send(
                NetworkRequest<Data>(path: "/__release", query: [URLQueryItem(name: "gate", value: gate)]))
        }
    }
}

extension Array {
    /// The results of `transform` on each element, in order, one after the other.
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
