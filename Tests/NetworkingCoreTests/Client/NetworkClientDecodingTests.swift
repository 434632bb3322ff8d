import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct NetworkClientDecodingTests {
    @Test func decodesJSONIntoTheResponseType() async throws {
        let client = try makeClient(transport: answering(body: #"{"id": 7, "name": "Ada"}"#))
        let user = try await client.send(NetworkRequest<User>(path: "/users/7"))
        #expect(user == User(id: 7, name: "Ada"))
    }

    @Test func returnsDataUnchanged() async throws {
        let bytes = Data([0, 1, 2, 255])
        let client = try makeClient(transport: MockTransport { _ in (HTTPResponse(status: 200), bytes) })
        let data = try await client.send(NetworkRequest<Data>(path: "/blob"))
        #expect(data == bytes)
    }

    @Test func decodesStringAsUTF8ByDefault() async throws {
        let client = try makeClient(transport: answering(body: "héllo"))
        #expect(try await client.send(NetworkRequest<String>(path: "/text")) == "héllo")
    }

    @Test func decodesStringInTheCharsetTheServerNames() async throws {
        let latin1 = Data([0x63, 0x61, 0x66, 0xE9])  // "café" in ISO-8859-1
        let client = try makeClient(
            transport: MockTransport { _ in
                (HTTPResponse(status: 200, headerFields: ["Content-Type": "text/plain; charset=ISO-8859-1"]), latin1)
            })
        #expect(try await client.send(NetworkRequest<String>(path: "/text")) == "café")
    }

    @Test func invalidUTF8TextIsADecodingError() async throws {
        let client = try makeClient(
            transport: MockTransport { _ in (HTTPResponse(status: 200), Data([0xFF, 0xFE, 0xFA])) })
        let error = try await expectNetworkError { try await client.send(NetworkRequest<String>(path: "/text")) }
        #expect(error?.kind == .decoding)
    }

    @Test(arguments: [204, 205, 200])
    func voidIgnoresAnEmptyBody(status: Int) async throws {
        let client = try makeClient(transport: answering(status))
        try await client.send(NetworkRequest<Void>(.delete, path: "/users/7"))
        let empty = try await client.send(NetworkRequest<EmptyResponse>(.delete, path: "/users/7"))
        #expect(empty == EmptyResponse())
    }

    @Test func headRequestWithEmptyBodyWorks() async throws {
        let transport = answering(200, headers: ["Content-Length": "1234"])
        let client = try makeClient(transport: transport)
        let response = try await client.response(for: NetworkRequest<Void>(.head, path: "/file"))
        #expect(response.statusCode == 200)
        #expect(transport.requests.first?.method.rawValue == "HEAD")
    }

    @Test func emptyBodyForAJSONTypeIsADecodingErrorNamingTheType() async throws {
        let client = try makeClient(transport: answering(204))
        let error = try #require(
            try await expectNetworkError { try await client.send(NetworkRequest<User>(path: "/users/7")) })
        #expect(error.kind == .decoding)
        #expect(error.message.contains("User"))
        #expect(error.message.contains("empty"))
    }

    @Test func decodingErrorCarriesPathStatusAndBodySnippet() async throws {
        let client = try makeClient(transport: answering(body: #"{"id": "seven", "name": "Ada"}"#))
        let error = try #require(
            try await expectNetworkError { try await client.send(NetworkRequest<User>(path: "/users/7")) })
        #expect(error.kind == .decoding)
        #expect(error.requestName == "GET /users/7")
        #expect(error.statusCode == 200)
        #expect(error.message.contains(".id"))
        #expect(error.bodySnippet().contains("seven"))
        #expect(error.underlyingError is DecodingError)
    }

    @Test func responseVariantReturnsValueHeadBodyAndRequest() async throws {
        let body = #"{"id": 1, "name": "A"}"#
        let client = try makeClient(transport: answering(201, body: body, headers: ["ETag": "\"v1\""]))
        let response = try await client.response(
            for: NetworkRequest<User>(.post, path: "/users", body: .json(User(id: 1, name: "A"))))
        #expect(response.value == User(id: 1, name: "A"))
        #expect(response.statusCode == 201)
        #expect(response.response.headerFields["ETag"] == "\"v1\"")
        #expect(response.body == Data(body.utf8))
        #expect(response.builtRequest.url?.absoluteString == "https://api.example.test/v1/users")
    }

    @Test func customDecodeClosureIsUsed() async throws {
        let client = try makeClient(transport: answering(body: "41"))
        let request = NetworkRequest<Int>(
            method: .get, endpoint: .path("/n"),
            decode: { data, _, _ in
                Int(String(decoding: data, as: UTF8.self))! + 1
            })
        #expect(try await client.send(request) == 42)
    }
}

/// What a JSON response asks for, and what "no content" decodes to (issue 16).
@Suite struct NetworkClientAcceptAndNoContentTests {
    @Test(arguments: [204, 200])
    func anOptionalResponseIsNilForAnEmptyBody(status: Int) async throws {
        let client = try makeClient(transport: answering(status))
        let user = try await client.send(NetworkRequest<User?>(path: "/users/7"))
        #expect(user == nil)
    }

    @Test func anOptionalResponseDecodesABodyAndANull() async throws {
        let present = try makeClient(transport: answering(body: #"{"id": 7, "name": "Ada"}"#))
        #expect(try await present.send(NetworkRequest<User?>(path: "/users/7")) == User(id: 7, name: "Ada"))
        let null = try makeClient(transport: answering(body: "null"))
        #expect(try await null.send(NetworkRequest<User?>(path: "/users/7")) == nil)
    }

    @Test func aNonOptionalResponseStillRefusesAnEmptyBody() async throws {
        let client = try makeClient(transport: answering(204))
        let error = try await expectNetworkError { try await client.send(NetworkRequest<User>(path: "/users/7")) }
        #expect(error?.kind == .decoding)
    }

    @Test func aJSONResponseAsksForJSONUnlessSomeoneSetsAccept() async throws {
        // Given
        let mock = answering(body: #"{"id": 1, "name": "A"}"#)
        let client = try makeClient(transport: mock)
        // When nobody sets Accept, then the request asks for JSON
        _ = try await client.send(NetworkRequest<User>(path: "/users/1"))
        #expect(mock.lastRequest?.header(.accept) == "application/json")
        // When the request sets its own, it wins
        _ = try await client.send(
            NetworkRequest<User>(path: "/users/1", headers: ["Accept": "application/vnd.api+json"]))
        #expect(mock.lastRequest?.header(.accept) == "application/vnd.api+json")
        // When a behavior sets one, it wins too: the default is the weakest
        _ = try await client.send(NetworkRequest<User>(path: "/users/1"), behavior: .headers(["Accept": "text/json"]))
        #expect(mock.lastRequest?.header(.accept) == "text/json")
        // When the request clears the default, none is sent
        var bare = NetworkRequest<User>(path: "/users/1")
        bare.defaultAccept = nil
        _ = try await client.send(bare)
        #expect(mock.lastRequest?.header(.accept) == nil)
    }

    @Test func rawResponsesSendNoAccept() async throws {
        let mock = answering(body: "x")
        let client = try makeClient(transport: mock)
        _ = try await client.send(NetworkRequest<Data>(path: "/blob"))
        #expect(mock.lastRequest?.header(.accept) == nil)
        _ = try await client.send(NetworkRequest<String>(path: "/text"))
        #expect(mock.lastRequest?.header(.accept) == nil)
        #expect(NetworkRequest<EmptyResponse>(path: "/none").defaultAccept == nil)
        #expect(NetworkRequest<[User]>(path: "/users").defaultAccept == "application/json")
    }
}
