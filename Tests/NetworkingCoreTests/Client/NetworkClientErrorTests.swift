import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct NetworkClientErrorTests {
    @Test(arguments: [301, 400, 401, 404, 429, 500, 503])
    func statusOutsideTheAcceptableRangeIsAnErrorWithStatusHeadersAndBody(status: Int) async throws {
        let client = try makeClient(
            transport: answering(status, body: #"{"error":"nope"}"#, headers: ["Retry-After": "3"]))
        let error = try #require(
            try await expectNetworkError { try await client.send(NetworkRequest<User>(path: "/users/1")) })
        #expect(error.kind == .unacceptableStatus(status))
        #expect(error.statusCode == status)
        #expect(error.response?.headerFields["Retry-After"] == "3")
        #expect(error.body == Data(#"{"error":"nope"}"#.utf8))
        #expect(error.requestName == "GET /users/1")
    }

    @Test func acceptableStatusCodesCanBeWidenedPerRequest() async throws {
        let client = try makeClient(transport: answering(404, body: #"{"id":0,"name":""}"#))
        var request = NetworkRequest<User>(path: "/users/0")
        request.acceptableStatusCodes = [200, 404]
        #expect(try await client.send(request) == User(id: 0, name: ""))
    }

    @Test func descriptionReadsAsOneLogLine() async throws {
        let client = try makeClient(transport: answering(503, body: "{\"error\":\"busy\"}\n"))
        let error = try #require(
            try await expectNetworkError { try await client.send(NetworkRequest<User>(path: "/users/1")) })
        // The reason phrase comes from Foundation and differs in letter case between platforms.
        #expect(
            error.description.hasPrefix(
                "NetworkError.unacceptableStatus(503) for GET /users/1 at https://api.example.test/v1/users/1: "
                    + "the server answered 503 "))
        #expect(error.description.hasSuffix(#" body: {"error":"busy"}\n"#))
        #expect(!error.description.contains("\n"))
    }

    @Test func urlErrorsFromATransportBecomeTypedTransportErrors() async throws {
        let client = try makeClient(transport: MockTransport { _ in throw URLError(.cannotConnectToHost) })
        let error = try #require(await expectNetworkError { try await client.send(NetworkRequest<User>(path: "/u")) })
        #expect(error.kind == .transport(.cannotConnect))
        #expect(error.transportError?.requestWasNotSent == true)
        #expect(error.transportError?.urlErrorCode == URLError.Code.cannotConnectToHost.rawValue)
    }

    @Test func otherTransportErrorsKeepTheOriginalAsUnderlying() async throws {
        let client = try makeClient(transport: MockTransport { _ in throw TestError("disk") })
        let error = try #require(await expectNetworkError { try await client.send(NetworkRequest<User>(path: "/u")) })
        #expect(error.kind == .transport(.other))
        #expect(error.underlyingError as? TestError == TestError("disk"))
    }

    @Test func cancelledURLErrorIsReportedAsCancellationNotWrapped() async throws {
        let client = try makeClient(transport: MockTransport { _ in throw URLError(.cancelled) })
        await #expect(throws: CancellationError.self) { try await client.send(NetworkRequest<User>(path: "/u")) }
    }

    @Test func cancellingTheCallingTaskThrowsCancellationError() async throws {
        let started = AsyncStream<Void>.makeStream()
        let client = try makeClient(
            transport: MockTransport { request in
                started.continuation.yield()
                try await Task.sleep(for: .seconds(3600))
                return (HTTPResponse(status: 200), Data())
            })
        let call = Task { try await client.send(NetworkRequest<Void>(path: "/slow")) }
        var iterator = started.stream.makeAsyncIterator()
        await iterator.next()
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
    }

    @Test func aBehaviorsOwnErrorIsNamedByItsType() async throws {
        struct FailingTokenStore: RequestBehavior {
            func modify(request: HTTPRequest, context: RequestContext) async throws -> HTTPRequest {
                throw TestError("keychain locked")
            }
        }
        let transport = answering()
        let client = try makeClient(transport: transport, behavior: FailingTokenStore())
        let error = try #require(await expectNetworkError { try await client.send(NetworkRequest<Void>(path: "/u")) })
        #expect(error.kind == .behavior("FailingTokenStore"))
        #expect(error.underlyingError as? TestError == TestError("keychain locked"))
        #expect(transport.requestCount == 0)
    }

    @Test func encodingFailureIsTypedAndNothingIsSent() async throws {
        struct Unencodable: Encodable, Sendable {
            func encode(to encoder: any Encoder) throws { throw TestError("no") }
        }
        let transport = answering()
        let client = try makeClient(transport: transport)
        let error = try #require(
            try await expectNetworkError {
                try await client.send(NetworkRequest<Void>(.post, path: "/u", body: .json(Unencodable())))
            })
        #expect(error.kind == .encoding)
        #expect(transport.requestCount == 0)
    }
}

@Suite struct NetworkErrorRedactionTests {
    @Test func aDecodingErrorRedactsTheSecretsBehaviorsAddedThatTheBodyEchoes() async throws {
        // The token is set by a behavior, not by the request: only the request as sent carries it.
        let transport = MockTransport { request in
            let echoed =
                "echo: \(request.headerFields[.authorization] ?? "") \(request.headerFields["X-Api-Key"] ?? "")"
            return (HTTPResponse(status: .ok, url: request.url), Data(echoed.utf8))
        }
        let client = try makeClient(
            transport: transport,
            behavior: .modifyRequest { request in
                request.headerFields[.authorization] = "Bearer s3cr3t-token-XYZ"
                request.headerFields[sensitive: "X-Api-Key"] = "key-123456"
            })
        let error = try await expectNetworkError { try await client.send(NetworkRequest<User>(path: "/me")) }
        #expect(error?.kind == .decoding)
        #expect(error?.sentRequest?.headerFields[.authorization] == "Bearer s3cr3t-token-XYZ")
        let text = "\(error.map { "\($0)" } ?? "")"
        #expect(text.contains("echo: "))
        #expect(!text.contains("s3cr3t-token-XYZ"))
        #expect(!text.contains("key-123456"))
    }

    @Test func aNegativeBodyLimitFailsTheCallAndNeverCrashes() async throws {
        let client = NetworkClient(
            configuration: .init(
                baseURL: testBaseURL, transport: answering(500, body: "oops"), maximumResponseBodySize: -1))
        let error = try await expectNetworkError { try await client.send(NetworkRequest<Data>(path: "/x")) }
        #expect(error?.kind == .unacceptableStatus(500))
        #expect(error?.body == Data())
        let ok = NetworkClient(
            configuration: .init(
                baseURL: testBaseURL, transport: answering(200, body: "ok"), maximumResponseBodySize: -1))
        let tooLarge = try await expectNetworkError { try await ok.send(NetworkRequest<Data>(path: "/x")) }
        #expect(tooLarge?.kind == .transport(.responseTooLarge))
    }

    /// A secret echoed across the 256-byte cut of the snippet: cutting first would show its head.
    @Test(arguments: [240, 250, 253, 255, 256])
    func aSecretStraddlingTheCutShowsNoPartOfIt(offset: Int) async throws {
        let token = "s3cret-token-abcdefghijklmnopqrstuvwxyz"
        let body = String(repeating: "x", count: offset) + token + String(repeating: "y", count: 300)
        let client = try makeClient(transport: answering(500, body: body), behavior: .authorization { token })
        let error = try #require(
            try await expectNetworkError { try await client.send(NetworkRequest<Data>(path: "/echo")) })
        for text in [error.description, "\(error)", error.localizedDescription, error.bodySnippet()] {
            for length in 4...token.count {
                #expect(!text.contains(token.prefix(length)), "shows \(token.prefix(length)) in \(text)")
            }
        }
        #expect(error.bodySnippet().contains("<redacted>") == (offset < 256))
        #expect(error.body == Data(body.utf8), "the stored body is left as it came")
    }

    @Test func aSecretFollowedByACombiningMarkAcrossTheCutShowsNoPartOfIt() async throws {
        // "n\u{301}" is one Character: matching by characters would not see the token ending in "n".
        let token = "s3cret-token-0123456789n"
        let body = String(repeating: "x", count: 250) + token + "\u{301}" + String(repeating: "y", count: 300)
        let client = try makeClient(transport: answering(500, body: body), behavior: .authorization { token })
        let error = try #require(
            try await expectNetworkError { try await client.send(NetworkRequest<Data>(path: "/echo")) })
        let snippet = error.bodySnippet()
        for length in 4...token.count { #expect(!snippet.contains(token.prefix(length)), "\(snippet)") }
        #expect(snippet.contains("<redacted>"))
    }
}
