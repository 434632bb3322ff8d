import Foundation
import Networking
import NetworkingTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct NetworkClientDecodingTests {
    @Test func decodesJSONIntoTheResponseType() async throws {
        let client = makeClient(transport: answering(body: #"{"id": 7, "name": "Ada"}"#))
        let user = try await client.send(NetworkRequest<User>(path: "/users/7"))
        #expect(user == User(id: 7, name: "Ada"))
    }

    @Test func returnsDataUnchanged() async throws {
        let bytes = Data([0, 1, 2, 255])
        let client = makeClient(transport: MockTransport { _ in (HTTPResponse(status: 200), bytes) })
        let data = try await client.send(NetworkRequest<Data>(path: "/blob"))
        #expect(data == bytes)
    }

    @Test func decodesStringAsUTF8ByDefault() async throws {
        let client = makeClient(transport: answering(body: "héllo"))
        #expect(try await client.send(NetworkRequest<String>(path: "/text")) == "héllo")
    }

    @Test func decodesStringInTheCharsetTheServerNames() async throws {
        let latin1 = Data([0x63, 0x61, 0x66, 0xE9])  // "café" in ISO-8859-1
        let client = makeClient(
            transport: MockTransport { _ in
                (HTTPResponse(status: 200, headerFields: ["Content-Type": "text/plain; charset=ISO-8859-1"]), latin1)
            })
        #expect(try await client.send(NetworkRequest<String>(path: "/text")) == "café")
    }

    @Test func invalidUTF8TextIsADecodingError() async throws {
        let client = makeClient(
            transport: MockTransport { _ in (HTTPResponse(status: 200), Data([0xFF, 0xFE, 0xFA])) })
        let error = await expectNetworkError { try await client.send(NetworkRequest<String>(path: "/text")) }
        #expect(error?.kind == .decoding)
    }

    @Test(arguments: [204, 205, 200])
    func voidIgnoresAnEmptyBody(status: Int) async throws {
        let client = makeClient(transport: answering(status))
        try await client.send(NetworkRequest<Void>(.delete, path: "/users/7"))
        let empty = try await client.send(NetworkRequest<EmptyResponse>(.delete, path: "/users/7"))
        #expect(empty == EmptyResponse())
    }

    @Test func headRequestWithEmptyBodyWorks() async throws {
        let transport = answering(200, headers: ["Content-Length": "1234"])
        let client = makeClient(transport: transport)
        let response = try await client.response(for: NetworkRequest<Void>(.head, path: "/file"))
        #expect(response.statusCode == 200)
        #expect(transport.requests.first?.method.rawValue == "HEAD")
    }

    @Test func emptyBodyForAJSONTypeIsADecodingErrorNamingTheType() async throws {
        let client = makeClient(transport: answering(204))
        let error = try #require(
            await expectNetworkError { try await client.send(NetworkRequest<User>(path: "/users/7")) })
        #expect(error.kind == .decoding)
        #expect(error.message.contains("User"))
        #expect(error.message.contains("empty"))
    }

    @Test func decodingErrorCarriesPathStatusAndBodySnippet() async throws {
        let client = makeClient(transport: answering(body: #"{"id": "seven", "name": "Ada"}"#))
        let error = try #require(
            await expectNetworkError { try await client.send(NetworkRequest<User>(path: "/users/7")) })
        #expect(error.kind == .decoding)
        #expect(error.requestName == "GET /users/7")
        #expect(error.statusCode == 200)
        #expect(error.message.contains(".id"))
        #expect(error.bodySnippet().contains("seven"))
        #expect(error.underlyingError is DecodingError)
    }

    @Test func responseVariantReturnsValueHeadBodyAndRequest() async throws {
        let body = #"{"id": 1, "name": "A"}"#
        let client = makeClient(transport: answering(201, body: body, headers: ["ETag": "\"v1\""]))
        let response = try await client.response(
            for: NetworkRequest<User>(.post, path: "/users", body: .json(User(id: 1, name: "A"))))
        #expect(response.value == User(id: 1, name: "A"))
        #expect(response.statusCode == 201)
        #expect(response.response.headerFields["ETag"] == "\"v1\"")
        #expect(response.body == Data(body.utf8))
        #expect(response.builtRequest.url?.absoluteString == "https://api.example.test/v1/users")
    }

    @Test func customDecodeClosureIsUsed() async throws {
        let client = makeClient(transport: answering(body: "41"))
        let request = NetworkRequest<Int>(
            method: .get, endpoint: .path("/n"),
            decode: { data, _, _ in
                Int(String(decoding: data, as: UTF8.self))! + 1
            })
        #expect(try await client.send(request) == 42)
    }
}
