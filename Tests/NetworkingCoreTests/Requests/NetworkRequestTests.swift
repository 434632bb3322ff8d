import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the client builds from a `NetworkRequest`, observed at the transport.
@Suite struct NetworkRequestTests {
    func sent<R>(_ request: NetworkRequest<R>, baseURL: URL? = testBaseURL) async throws -> HTTPRequest {
        let transport = MockTransport { request in (HTTPResponse(status: 200), Data("{}".utf8)) }
        let client = NetworkClient(
            configuration: .init(baseURL: baseURL, transport: transport, clock: SystemClock()))
        _ = try? await client.send(request)
        return try #require(transport.requests.first)
    }

    @Test(arguments: [
        ("https://api.test/v1", "/users", "https://api.test/v1/users"),
        ("https://api.test/v1/", "/users", "https://api.test/v1/users"),
        ("https://api.test/v1", "users", "https://api.test/v1/users"),
        ("https://api.test", "/a b", "https://api.test/a%20b"),
        ("https://api.test", "/x%2Fy", "https://api.test/x%2Fy"),
        ("https://api.test", "/100%zz", "https://api.test/100%25zz"),
        ("https://api.test", "/s?q=1", "https://api.test/s?q=1"),
        ("https://api.test:8443/", "/p", "https://api.test:8443/p"),
    ])
    func pathsJoinTheBaseURL(base: String, path: String, expected: String) async throws {
        let request = try await sent(NetworkRequest<Void>(path: path), baseURL: URL(string: base)!)
        #expect(request.url?.absoluteString == expected)
    }

    @Test func queryItemsAreEncodedSoPlusAndAmpersandSurvive() async throws {
        let request = try await sent(
            NetworkRequest<Void>(
                path: "/search?lang=en",
                query: [
                    URLQueryItem(name: "q", value: "a+b & c=d"), URLQueryItem(name: "flag", value: nil),
                ]))
        #expect(request.url?.absoluteString == "https://api.example.test/v1/search?lang=en&q=a%2Bb%20%26%20c%3Dd&flag")
    }

    @Test func absoluteURLIgnoresTheBaseURLAndDropsTheFragment() async throws {
        let request = try await sent(NetworkRequest<Void>(url: URL(string: "http://other.test:8080/x#frag")!))
        #expect(request.url?.absoluteString == "http://other.test:8080/x")
    }

    @Test func jsonBodyIsEncodedWithContentType() async throws {
        let request = try await sent(NetworkRequest<Void>(.post, path: "/users", body: .json(User(id: 1, name: "Ada"))))
        #expect(request.headerFields["Content-Type"] == "application/json")
        let decoded = try JSONDecoder().decode(User.self, from: try #require(request.body.data))
        #expect(decoded == User(id: 1, name: "Ada"))
    }

    @Test func formBodyIsPercentEncodedWithSpaceAsPlus() async throws {
        let request = try await sent(
            NetworkRequest<Void>(
                .post, path: "/login",
                body: .form([
                    URLQueryItem(name: "user", value: "ada lovelace"), URLQueryItem(name: "pass", value: "a&b=c+d/é"),
                ])))
        #expect(
            String(decoding: try #require(request.body.data), as: UTF8.self)
                == "user=ada+lovelace&pass=a%26b%3Dc%2Bd%2F%C3%A9")
        #expect(request.headerFields["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
    }

    @Test func explicitContentTypeWinsOverTheBodyDefault() async throws {
        let request = try await sent(
            NetworkRequest<Void>(
                .put, path: "/doc", headers: ["content-type": "application/vnd.api+json"], body: .json(["a": 1])))
        #expect(request.headerFields["Content-Type"] == "application/vnd.api+json")
    }

    @Test func rawDataBodyIsSentAsIs() async throws {
        let request = try await sent(
            NetworkRequest<Void>(
                .post, path: "/raw", body: .data(Data([1, 2, 3]), contentType: "application/octet-stream")))
        #expect(request.body.data == Data([1, 2, 3]))
        #expect(request.headerFields["Content-Type"] == "application/octet-stream")
    }

    @Test func nameUsesMethodAndPathWithoutQueryOrCredentials() {
        #expect(NetworkRequest<Void>(.post, path: "/users?token=secret").name == "POST /users")
        #expect(NetworkRequest<Void>(url: URL(string: "https://u:p@h.test/a?k=s")!).name == "GET https://h.test/a")
    }

    @Test func methodTokensAndIdempotency() {
        #expect(HTTPMethod.put.isIdempotent)
        #expect(!HTTPMethod.post.isIdempotent)
        #expect(HTTPMethod(rawValue: "PROPFIND").isValidToken)
        #expect(!HTTPMethod(rawValue: "GET\r\n").isValidToken)
    }
}

@Suite struct NetworkRequestOptionsTests {
    @Test func everyInitializerTakesTheDeadlineAndTheAcceptableStatuses() {
        let url = URL(string: "https://api.example.com/v1/items")!
        let decoded = NetworkRequest<User>(path: "/u", deadline: .seconds(9), acceptableStatusCodes: [200, 404])
        let decodedAtURL = NetworkRequest<User>(url: url, deadline: .seconds(9), acceptableStatusCodes: [200, 404])
        let ignored = NetworkRequest<Void>(
            .delete, path: "/u", deadline: .seconds(9), acceptableStatusCodes: [200, 404])
        let ignoredAtURL = NetworkRequest<Void>(url: url, deadline: .seconds(9), acceptableStatusCodes: [200, 404])
        #expect(
            [decoded.deadline, decodedAtURL.deadline, ignored.deadline, ignoredAtURL.deadline].allSatisfy {
                $0 == .seconds(9)
            })
        #expect(
            [
                decoded.acceptableStatusCodes, decodedAtURL.acceptableStatusCodes, ignored.acceptableStatusCodes,
                ignoredAtURL.acceptableStatusCodes,
            ].allSatisfy { $0 == [200, 404] })
        let plain = NetworkRequest<User>(path: "/u")
        #expect(plain.deadline == nil && plain.acceptableStatusCodes == nil)
        let mapped = decoded.withResponse(Data.self) { data, _, _ in data }
        #expect(mapped.deadline == .seconds(9) && mapped.acceptableStatusCodes == [200, 404])
    }

    @Test func aStatusAcceptedAtTheInitializerIsDecoded() async throws {
        let client = try makeClient(transport: answering(404, body: #"{"id": 0, "name": ""}"#))
        let user = try await client.send(NetworkRequest<User>(path: "/u/0", acceptableStatusCodes: [200, 404]))
        #expect(user == User(id: 0, name: ""))
    }
}
