import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct MockTransportSequenceTests {
    /// Sends once more after a 401 or 503, as an auth-refresh or retry behavior would, recording what it saw.
    private struct AgainOnce: RequestBehavior {
        let seen: LockedBox<[String]>

        func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
            HTTPResponse, HTTPResponse.Body
        ) {
            do {
                return try await next(request)
            } catch let error as NetworkError where error.statusCode == 401 || error.statusCode == 503 {
                let retryAfter = error.response?.headerFields["Retry-After"] ?? "-"
                seen.withLock { $0.append("\(error.statusCode ?? 0) retry-after=\(retryAfter)") }
                var again = request
                again.headerFields["Authorization"] = "Bearer fresh"
                return try await next(again)
            }
        }
    }

    @Test func unauthorizedThenSuccessRunsTheWholeChain() async throws {
        // Given
        let seen = LockedBox<[String]>([])
        let mock = MockTransport().stub(.get, "/me", .unauthorized, .success(User(id: 1, name: "Ada")))
        let client = try makeClient(transport: mock, behavior: AgainOnce(seen: seen))

        // When
        let user = try await client.send(NetworkRequest<User>(path: "/me"))

        // Then
        #expect(user == User(id: 1, name: "Ada"))
        #expect(seen.current == ["401 retry-after=-"])
        #expect(mock.recordedRequests.map { $0.header("Authorization") } == [nil, "Bearer fresh"])
    }

    @Test func serviceUnavailableWithRetryAfterThenSuccess() async throws {
        let seen = LockedBox<[String]>([])
        let mock = MockTransport()
            .stub(.get, "/feed", .serviceUnavailable(retryAfter: 1), .success([1, 2, 3]))
        let client = try makeClient(transport: mock, behavior: AgainOnce(seen: seen))

        let feed = try await client.send(NetworkRequest<[Int]>(path: "/feed"))

        #expect(feed == [1, 2, 3])
        #expect(seen.current == ["503 retry-after=1"])
        #expect(mock.requestCount == 2)
    }

    @Test func lastAnswerOfAScriptRepeats() async throws {
        let mock = MockTransport().stub(.get, "/n", .json("1"), .json("2"))
        let client = try makeClient(transport: mock)

        var values: [Int] = []
        for _ in 0..<4 { values.append(try await client.send(NetworkRequest<Int>(path: "/n"))) }

        #expect(values == [1, 2, 2, 2])
        #expect(mock.stubHitCounts == [4])
    }

    @Test func scriptsOfDifferentStubsAdvanceIndependently() async throws {
        let mock = MockTransport()
            .stub(.get, "/a", .status(500), .data(Data("a".utf8)))
            .stub(.get, "/b", .data(Data("b".utf8)), .status(500))
        let client = try makeClient(transport: mock)

        let b = try await client.send(NetworkRequest<String>(path: "/b"))
        let a1 = try await expectNetworkError { try await client.send(NetworkRequest<String>(path: "/a")) }
        let a2 = try await client.send(NetworkRequest<String>(path: "/a"))
        let b2 = try await expectNetworkError { try await client.send(NetworkRequest<String>(path: "/b")) }

        #expect(b == "b")
        #expect(a1?.statusCode == 500)
        #expect(a2 == "a")
        #expect(b2?.statusCode == 500)
    }
}
