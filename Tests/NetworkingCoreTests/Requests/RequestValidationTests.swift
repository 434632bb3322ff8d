import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every bad input is refused before any I/O with a typed error naming the request; the transport never sees it.
@Suite struct RequestValidationTests {
    struct BadRequest: CustomTestStringConvertible, Sendable {
        let label: String
        let request: NetworkRequest<Void>
        let reason: String
        var testDescription: String { label }
    }

    static let badRequests: [BadRequest] = [
        .init(label: "ftp URL", request: .init(url: URL(string: "ftp://files.test/a")!), reason: "scheme \"ftp\""),
        .init(label: "file URL", request: .init(url: URL(string: "file:///etc/passwd")!), reason: "scheme \"file\""),
        .init(label: "URL without host", request: .init(url: URL(string: "http:///nohost")!), reason: "no host"),
        .init(label: "port out of range", request: .init(url: URL(string: "http://h.test:70000/")!), reason: "port"),
        .init(label: "CRLF in path", request: .init(path: "/a\r\nX-Injected: 1"), reason: "control character"),
        .init(
            label: "CRLF in header value", request: .init(path: "/a", headers: ["X-Note": "a\r\nX-Injected: yes"]),
            reason: "X-Note contains CR, LF, NUL"),
        .init(
            label: "NUL in header value", request: .init(path: "/a", headers: ["X-Note": "a\u{0}b"]), reason: "X-Note"),
        .init(
            label: "LF in header name", request: .init(path: "/a", headers: ["X-Bad\nName": "v"]), reason: "header name"
        ),
        .init(
            label: "space in header name", request: .init(path: "/a", headers: ["X Bad": "v"]), reason: "header name"),
        .init(
            label: "colon in header name", request: .init(path: "/a", headers: ["X:Bad": "v"]), reason: "header name"),
        .init(label: "empty header name", request: .init(path: "/a", headers: ["": "v"]), reason: "header name"),
        .init(
            label: "Content-Length set by caller", request: .init(path: "/a", headers: ["Content-Length": "5"]),
            reason: "set by the transport"),
        .init(label: "Host set by caller", request: .init(path: "/a", headers: ["Host": "evil.test"]), reason: "Host"),
        .init(
            label: "Connection set by caller", request: .init(path: "/a", headers: ["Connection": "keep-alive"]),
            reason: "Connection"),
        .init(
            label: "Transfer-Encoding set by caller",
            request: .init(path: "/a", headers: ["TRANSFER-ENCODING": "chunked"]), reason: "TRANSFER-ENCODING"),
        .init(label: "method with space", request: .init(HTTPMethod(rawValue: "GET /x"), path: "/a"), reason: "method"),
        .init(label: "empty method", request: .init(HTTPMethod(rawValue: ""), path: "/a"), reason: "method"),
        .init(
            label: "GET with body", request: .init(.get, path: "/a", body: .data(Data("x".utf8))),
            reason: "cannot carry a body"),
        .init(
            label: "HEAD with body", request: .init(.head, path: "/a", body: .json(["a": 1])),
            reason: "cannot carry a body"),
    ]

    @Test(arguments: badRequests)
    func badInputIsRefusedBeforeIO(_ bad: BadRequest) async throws {
        let transport = answering()
        let client = try makeClient(transport: transport)
        let error = try #require(await expectNetworkError { try await client.send(bad.request) })
        #expect(error.kind == .invalidRequest)
        #expect(error.message.contains(bad.reason), "message was: \(error.message)")
        #expect(error.requestName == bad.request.name)
        #expect(transport.requestCount == 0)
    }

    @Test func relativePathWithoutBaseURLIsRefused() async throws {
        let transport = answering()
        let client = NetworkClient(configuration: .init(baseURL: nil, transport: transport, clock: SystemClock()))
        let error = try #require(
            try await expectNetworkError { try await client.send(NetworkRequest<Void>(path: "/users")) })
        #expect(error.kind == .invalidRequest)
        #expect(error.message.contains("no base URL"))
        #expect(transport.requestCount == 0)
    }

    @Test(arguments: ["ftp://files.test/", "file:///tmp/", "http:///nohost", "http://h.test:0/"])
    func anUnusableBaseURLIsRefusedOnEveryCall(base: String) async throws {
        let transport = answering()
        let client = NetworkClient(
            configuration: .init(baseURL: URL(string: base)!, transport: transport, clock: SystemClock()))
        let error = try #require(
            try await expectNetworkError { try await client.send(NetworkRequest<Void>(path: "/users")) })
        #expect(error.kind == .invalidRequest)
        #expect(error.requestName == "GET /users")
        #expect(transport.requestCount == 0)
    }

    @Test(arguments: ["../admin", "a/../../b", "%2e%2e/x", "%2E%2e/x", "./x", "a/%2E/b", "/v2/.."])
    func dotSegmentsThatWouldLeaveTheBasePathAreRefused(path: String) async throws {
        let transport = answering()
        let error = try #require(
            try await expectNetworkError {
                try await makeClient(transport: transport).send(NetworkRequest<Void>(path: path))
            })
        #expect(error.kind == .invalidRequest)
        #expect(error.message.contains("segment"))
        #expect(transport.requestCount == 0)
    }

    @Test(arguments: ["a..b", "...", ".well-known/x", "v1.2/items"])
    func dotsInsideSegmentsAreFine(path: String) async throws {
        let transport = answering()
        try await makeClient(transport: transport).send(NetworkRequest<Void>(path: path))
        #expect(transport.requestCount == 1)
    }

    @Test func aBaseURLWithAQueryIsRefused() async throws {
        let transport = answering()
        let client = NetworkClient(
            configuration: .init(
                baseURL: URL(string: "https://api.test/v1?key=abc")!, transport: transport, clock: SystemClock()))
        let error = try #require(
            try await expectNetworkError { try await client.send(NetworkRequest<Void>(path: "/users")) })
        #expect(error.kind == .invalidRequest)
        #expect(error.message.contains("query"))
        #expect(transport.requestCount == 0)
    }

    @Test func anEnormousTimeoutOnAPlainTransportNeverOverflows() async throws {
        let transport = answering()
        let client = try makeClient(transport: transport, timeout: .seconds(Int64.max), deadline: .seconds(Int64.max))
        try await client.send(NetworkRequest<Void>(path: "/x"))
        #expect(transport.requestCount == 1)
    }

    @Test func aBehaviorThatInjectsCRLFIsStoppedBeforeTheTransport() async throws {
        struct Injector: RequestBehavior {
            func modify(request: HTTPRequest, context: RequestContext) async throws -> HTTPRequest {
                var request = request
                request.headerFields = ["X-Evil": "a\r\nInjected: yes"]
                return request
            }
        }
        let log = HookTrace()
        let transport = answering()
        let client = try makeClient(
            transport: transport, behavior: CombinedBehavior([HookTraceBehavior("outer", log: log), Injector()]))
        let error = try #require(await expectNetworkError { try await client.send(NetworkRequest<Void>(path: "/a")) })
        #expect(error.kind == .invalidRequest)
        #expect(
            error.message
                == "invalid request: the value of header X-Evil contains CR, LF, NUL or another control character")
        #expect(transport.requestCount == 0)
        #expect(log.events == ["outer.modify", "outer.beforeSend", "outer.afterFailure(invalidRequest)"])
    }

    @Test func repeatedFieldsAreAllKeptInOrder() async throws {
        let transport = answering()
        var headers: HTTPFields = ["Accept": "a"]
        headers.append(HTTPField(name: "accept", value: "b"))
        try await makeClient(transport: transport).send(NetworkRequest<Void>(path: "/a", headers: headers))
        #expect(transport.requests.first?.headerFields[values: .accept] == ["a", "b"])
        #expect(transport.requests.first?.headerFields.map(\.name.rawName) == ["Accept", "accept"])
    }

    @Test func nonASCIIHeaderValuesAreAllowed() async throws {
        let transport = answering()
        try await makeClient(transport: transport).send(
            NetworkRequest<Void>(path: "/a", headers: ["X-Name": "Zoë"]))
        #expect(transport.requests.first?.headerFields["X-Name"] == "Zoë")
    }
}
