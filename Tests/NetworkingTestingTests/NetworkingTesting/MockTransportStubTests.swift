import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct MockTransportStubTests {
    private struct Profile: Codable, Equatable, Sendable {
        let accountNumber: Int
        let displayName: String
    }

    @Test func typedStubIsDecodedThroughTheClient() async throws {
        // Given
        let mock = MockTransport().stub(.get, "/users/1", .success(User(id: 1, name: "Ada")))
        let client = try makeClient(transport: mock)

        // When
        let response = try await client.response(for: NetworkRequest<User>(path: "/users/1"))

        // Then
        #expect(response.value == User(id: 1, name: "Ada"))
        #expect(response.response.status.code == 200)
        #expect(response.response.headerFields["Content-Type"] == "application/json")
    }

    @Test func typedStubUsesTheMockEncoderSoCustomStrategiesRoundTrip() async throws {
        // Given: the server speaks snake_case and the client decodes it
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let mock = MockTransport(encoder: encoder).stub(
            .get, "/me", .success(Profile(accountNumber: 7, displayName: "Lin")))
        let client = NetworkClient(configuration: .init(baseURL: testBaseURL, transport: mock, decoder: decoder))

        // When
        let response = try await client.response(for: NetworkRequest<Profile>(path: "/me"))

        // Then
        #expect(response.value == Profile(accountNumber: 7, displayName: "Lin"))
        #expect(String(decoding: response.body, as: UTF8.self).contains("display_name"))
    }

    @Test func rawDataStatusAndHeadersAreServedAsGiven() async throws {
        let mock = MockTransport()
            .stub(.get, "/raw", .data(Data("hello".utf8), status: 203, headers: ["X-Trace": "abc"]))
        let client = try makeClient(transport: mock)

        let response = try await client.response(for: NetworkRequest<String>(path: "/raw"))

        #expect(response.value == "hello")
        #expect(response.response.status.code == 203)
        #expect(response.response.headerFields["X-Trace"] == "abc")
    }

    @Test(arguments: [400, 404, 500, 503])
    func statusStubReachesTheCallerAsUnacceptableStatus(status: Int) async throws {
        let mock = MockTransport().stub(.delete, "/users/1", .status(status, body: #"{"error":"no"}"#))
        let client = try makeClient(transport: mock)

        let error = try await expectNetworkError {
            try await client.send(NetworkRequest<Void>(.delete, path: "/users/1"))
        }

        #expect(error?.kind == .unacceptableStatus(status))
        #expect(error?.bodySnippet() == #"{"error":"no"}"#)
    }

    @Test func failureStubThrowsTheTransportError() async throws {
        let mock = MockTransport().stub(.get, "/users/1", .failure(TransportError(.cannotConnect, "offline")))
        let client = try makeClient(transport: mock)

        let error = try await expectNetworkError { try await client.send(NetworkRequest<User>(path: "/users/1")) }

        #expect(error?.kind == .transport(.cannotConnect))
        #expect(error?.transportError?.message == "offline")
    }

    @Test func matchingUsesMethodPathAndQuery() async throws {
        // Given
        let mock = MockTransport()
            .stub(.get, "/users", .json("[1]"))
            .stub(.get, "/users", query: ["page": "2"], .json("[2]"))
            .stub(.post, "/users", .json("[3]", status: 201))
            .stub(.get, "/users/*", .json("[4]"))
        let client = try makeClient(transport: mock)

        // When
        let first = try await client.send(NetworkRequest<[Int]>(path: "/users"))
        let second = try await client.send(
            NetworkRequest<[Int]>(path: "/users", query: [URLQueryItem(name: "page", value: "2")]))
        let third = try await client.send(NetworkRequest<[Int]>(.post, path: "/users", body: .json(["a": 1])))
        let fourth = try await client.send(NetworkRequest<[Int]>(path: "/users/42"))

        // Then
        #expect([first, second, third, fourth] == [[1], [2], [3], [4]])
        #expect(mock.unusedStubs.isEmpty)
        #expect(mock.stubHitCounts == [1, 1, 1, 1])
    }

    @Test func pathSegmentsCompareWhole() async throws {
        let mock = MockTransport().stub(.get, "/users/1", .noContent)
        let client = try makeClient(transport: mock)

        let error = try await expectNetworkError { try await client.send(NetworkRequest<Void>(path: "/admin-users/1")) }

        #expect(error?.underlyingError is UnmatchedRequestError)
        #expect(mock.unusedStubs == [StubMatcher(method: .get, path: "/users/1")])
    }

    @Test func laterStubOfEqualSpecificityReplacesAnEarlierOne() async throws {
        let mock = MockTransport()
            .stub(.get, "/users/1", .success(User(id: 1, name: "old")))
            .stub(.get, "/users/1", .success(User(id: 1, name: "new")))
        let client = try makeClient(transport: mock)

        let user = try await client.send(NetworkRequest<User>(path: "/users/1"))

        #expect(user.name == "new")
    }

    @Test func handlerStubAnswersFromWhatWasSent() async throws {
        // Given
        let mock = MockTransport().stub(.post, "/users") { request in
            let sent = try request.decodedBody(as: User.self)
            return .success(User(id: 99, name: sent.name.uppercased()), status: 201)
        }
        let client = try makeClient(transport: mock)

        // When
        let created = try await client.send(
            NetworkRequest<User>(.post, path: "/users", body: .json(User(id: 0, name: "ada"))))

        // Then
        #expect(created == User(id: 99, name: "ADA"))
        #expect(mock.requests(to: .post, "/users").count == 1)
    }

    @Test func fallbackClosureAnswersWhatNoStubMatches() async throws {
        let mock = MockTransport { request in (HTTPResponse(status: 200), Data("fallback".utf8)) }
        mock.stub(.get, "/stubbed", .data(Data("stub".utf8)))
        let client = try makeClient(transport: mock)

        let stubbed = try await client.send(NetworkRequest<String>(path: "/stubbed"))
        let other = try await client.send(NetworkRequest<String>(path: "/other"))

        #expect(stubbed == "stub")
        #expect(other == "fallback")
        #expect(mock.requestCount == 2)
    }

    @Test func delayedAnswerWaitsOnTheMockClock() async throws {
        // Given
        let clock = TestClock(mode: .manual)
        let mock = MockTransport(clock: clock).stub(.get, "/slow", .json("1").delayed(by: .seconds(5)))
        let client = try makeClient(transport: mock)

        // When
        let call = Task { try await client.send(NetworkRequest<Int>(path: "/slow")) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(5))

        // Then
        #expect(try await call.value == 1)
        #expect(clock.sleeps == [.seconds(5)])
    }
}
