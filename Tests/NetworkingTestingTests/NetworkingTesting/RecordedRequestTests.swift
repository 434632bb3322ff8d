import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct RecordedRequestTests {
    @Test func recordsTheRequestAsSentAfterBehaviors() async throws {
        // Given
        let log = HookTrace()
        let mock = MockTransport().stub(.post, "/users", .success(User(id: 5, name: "Ada"), status: 201))
        let client = try makeClient(
            transport: mock, behavior: HookTraceBehavior("auth", log: log, additionalHeaders: ["X-Token": "t0k"]))

        // When
        _ = try await client.send(
            NetworkRequest<User>(
                .post, path: "/users", query: [URLQueryItem(name: "notify", value: "yes please")],
                headers: ["X-Request": "1"], body: .json(User(id: 0, name: "Ada"))))

        // Then
        let sent = try #require(mock.lastRequest)
        #expect(sent.method == .post)
        #expect(sent.path == "/v1/users")
        #expect(sent.query == ["notify": "yes please"])
        #expect(sent.header("x-token") == "t0k")
        #expect(sent.header("X-REQUEST") == "1")
        #expect(sent.header("Content-Type") == "application/json")
        #expect(sent.header("X-Missing") == nil)
        #expect(try sent.decodedBody(as: User.self) == User(id: 0, name: "Ada"))
        #expect(sent.description == "POST /v1/users?notify=yes%20please")
    }

    @Test func repeatedQueryNamesKeepOrderAndTheLastWinsInTheDictionary() throws {
        let request = HTTPRequest(url: URL(string: "https://x.test/search?tag=a&tag=b&flag")!)
        let recorded = RecordedRequest(request)

        #expect(recorded.queryItems.map(\.name) == ["tag", "tag", "flag"])
        #expect(recorded.query == ["tag": "b", "flag": ""])
        #expect(recorded.method == .get)
    }

    @Test func decodingAMissingBodyNamesTheRequest() throws {
        let recorded = RecordedRequest(HTTPRequest(url: URL(string: "https://x.test/users/1")!))

        #expect(recorded.body == nil)
        #expect(recorded.bodyText == nil)
        let error = try expectError(RecordedRequest.MissingBody.self) { try recorded.decodedBody(as: User.self) }
        #expect(error?.description == "GET /users/1 has no body to decode")
    }

    @Test func filtersRecordedRequestsByMethodAndPath() async throws {
        let mock = MockTransport { request in (HTTPResponse(status: 204), Data()) }
        let client = try makeClient(transport: mock)

        try await client.send(NetworkRequest<Void>(path: "/a"))
        try await client.send(NetworkRequest<Void>(.delete, path: "/a"))
        try await client.send(NetworkRequest<Void>(path: "/b", query: [URLQueryItem(name: "q", value: "1")]))

        #expect(mock.requests(to: .get, "/a").count == 1)
        #expect(mock.requests(to: nil, "/a").count == 2)
        #expect(mock.requests(to: .get, "/b", query: ["q": "1"]).count == 1)
        #expect(mock.requests(to: .get, "/b", query: ["q": "2"]).isEmpty)
        #expect(mock.recordedRequests.map(\.description) == ["GET /v1/a", "DELETE /v1/a", "GET /v1/b?q=1"])
    }
}
