import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// Authorization, redirects and retries against httpbin. httpbin cannot count hits, so attempts are counted by an
    /// ``AttemptCounter`` placed inside the retry behavior.
    @Suite struct HTTPBinAuthRedirectTests {
        struct Authenticated: Decodable, Sendable {
            let authenticated: Bool
            let token: String?
            let user: String?
        }

        @Test func bearerEndpointRefusesACallWithoutAToken() async throws {
            let client = try await HTTPBin.client()
            let error = try await expectNetworkError {
                try await client.send(NetworkRequest<Authenticated>(path: "/bearer"))
            }
            #expect(error?.kind == .unacceptableStatus(401))
        }

        @Test func authorizationBehaviorIsAcceptedByBearer() async throws {
            let tokens = InMemoryTokenStore("token-123")
            let client = try await HTTPBin.client(behavior: .authorization(.bearer, store: tokens))
            let answer = try await client.send(NetworkRequest<Authenticated>(path: "/bearer"))
            #expect(answer.authenticated)
            #expect(answer.token == "token-123")
            // A new token is used by the next call.
            tokens.set("token-456")
            #expect(try await client.send(NetworkRequest<Authenticated>(path: "/bearer")).token == "token-456")
        }

        @Test func basicAuthorizationIsAcceptedByBasicAuth() async throws {
            let client = try await HTTPBin.client(behavior: .basicAuthorization(user: "ada", password: "pa:ss wörd"))
            let answer = try await client.send(NetworkRequest<Authenticated>(path: "/basic-auth/ada/pa:ss wörd"))
            #expect(answer.authenticated)
            #expect(answer.user == "ada")
        }

        @Test func retryLeavesStatus500AfterExactlyItsAttemptBudget() async throws {
            // Given: three attempts, waits on a virtual clock, and a counter inside the retry
            let counter = AttemptCounter()
            let clock = TestClock()
            let retry = RetryBehavior(settings: RetrySettings(maximumAttempts: 3), clock: clock)
            let client = try await HTTPBin.client(behavior: CombinedBehavior([retry, counter]))
            // When
            let error = try await expectNetworkError {
                try await client.send(NetworkRequest<Data>(path: "/status/500"))
            }
            // Then
            #expect(error?.kind == .unacceptableStatus(500))
            #expect(counter.sent == 3)
            #expect(counter.statuses == [500, 500, 500])
            #expect(clock.sleeps.count == 2)
        }

        @Test(arguments: [1, 2, 5])
        func retryBudgetIsFollowedForAnyMaximum(attempts: Int) async throws {
            let counter = AttemptCounter()
            let client = try await HTTPBin.client(
                behavior: CombinedBehavior([
                    RetryBehavior(settings: RetrySettings(maximumAttempts: attempts), clock: TestClock()), counter,
                ]))
            let error = try await expectNetworkError {
                try await client.send(NetworkRequest<Data>(path: "/status/503"))
            }
            #expect(error?.kind == .unacceptableStatus(503))
            #expect(counter.sent == attempts)
        }

        @Test func postToStatus500IsSentOnceByDefault() async throws {
            let counter = AttemptCounter()
            let client = try await HTTPBin.client(
                behavior: CombinedBehavior([RetryBehavior(settings: .default, clock: TestClock()), counter]))
            let error = try await expectNetworkError {
                try await client.send(NetworkRequest<Data>(.post, path: "/status/500", body: .json(["a": 1])))
            }
            #expect(error?.kind == .unacceptableStatus(500))
            #expect(counter.sent == 1)
        }

        @Test func nonRetryableStatusIsSentOnce() async throws {
            let counter = AttemptCounter()
            let client = try await HTTPBin.client(
                behavior: CombinedBehavior([RetryBehavior(settings: .default, clock: TestClock()), counter]))
            let error = try await expectNetworkError {
                try await client.send(NetworkRequest<Data>(path: "/status/404"))
            }
            #expect(error?.kind == .unacceptableStatus(404))
            #expect(counter.sent == 1)
        }

        @Test func redirectChainEndsAtTheFinalURL() async throws {
            let client = try await HTTPBin.client()
            let response = try await client.response(for: NetworkRequest<PlainEcho>(path: "/redirect/3"))
            #expect(response.response.url?.path == "/get")
            #expect(response.value.url.hasSuffix("/get"))
        }

        @Test func redirectsBeyondTheLimitAreATypedError() async throws {
            let client = try await HTTPBin.client(
                configure: { $0.maximumRedirects = 3 })
            let error = try await expectNetworkError {
                try await client.send(NetworkRequest<Data>(path: "/redirect/4"))
            }
            #expect(error?.kind == .transport(.tooManyRedirects))
            _ = try await client.send(NetworkRequest<Data>(path: "/redirect/3"))
        }

        /// (redirect status, method the target sees): RFC 9110 §15.4 as the transport's `RedirectState` applies it.
        /// Bodies and body headers are checked, with hit counts, in FaultRedirectTests.
        static let redirectRules: [(Int, String)] = [
            (301, "GET"), (302, "GET"), (303, "GET"), (307, "POST"), (308, "POST"),
        ]

        @Test(arguments: redirectRules)
        func postRedirectFollowsTheMethodRules(status: Int, method: String) async throws {
            struct Payload: Codable, Equatable, Sendable { let n: Int }
            let client = try await HTTPBin.client()
            let echo = try await client.send(
                NetworkRequest<HTTPBinEcho<Payload>>(
                    .post, path: "/redirect-to",
                    query: [
                        URLQueryItem(name: "url", value: "/anything/target"),
                        URLQueryItem(name: "status_code", value: "\(status)"),
                    ],
                    body: .json(Payload(n: status))))
            #expect(echo.method == method)
            #expect(echo.url.hasSuffix("/anything/target"))
            if method == "GET" { #expect(echo.json == nil) }
        }
    }
}
