import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct UnmatchedRequestTests {
    @Test func requestWithNoStubFailsNamingTheRequestAndTheStubs() async throws {
        // Given
        let mock = MockTransport()
            .stub(.get, "/users/1", .success(User(id: 1, name: "Ada")))
            .stub(.post, "/users", query: ["dry": "1"], .noContent)
        let client = try makeClient(transport: mock)

        // When
        let error = try await expectNetworkError {
            try await client.send(
                NetworkRequest<User>(path: "/users/7", query: [URLQueryItem(name: "page", value: "2")]))
        }

        // Then
        let unmatched = try #require(error?.underlyingError as? UnmatchedRequestError)
        #expect(unmatched.request == "GET /v1/users/7?page=2")
        #expect(unmatched.stubs == ["GET /users/1", "POST /users?dry=1"])
        #expect(error?.kind == .transport(.other))
        #expect(
            error?.message == "no stub for GET /v1/users/7?page=2; stubs: GET /users/1, POST /users?dry=1")
        #expect(mock.requestCount == 1)
    }

    @Test func mockWithoutStubsSaysSo() async throws {
        let client = try makeClient(transport: MockTransport())

        let error = try await expectNetworkError { try await client.send(NetworkRequest<Void>(.put, path: "/x")) }

        #expect("\(error?.underlyingError ?? TestError())" == "no stub for PUT /v1/x; the mock has no stubs")
    }

    @Test func wrongMethodDoesNotMatch() async throws {
        let mock = MockTransport().stub(.get, "/users/1", .noContent)
        let client = try makeClient(transport: mock)

        let error = try await expectNetworkError {
            try await client.send(NetworkRequest<Void>(.delete, path: "/users/1"))
        }

        #expect((error?.underlyingError as? UnmatchedRequestError)?.request == "DELETE /v1/users/1")
        #expect(mock.unusedStubs.count == 1)
    }
}
