import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The behavior alone: its `modify` hook, called directly.
@Suite struct IdempotencyKeyBehaviorTests {
    func request(_ method: HTTPMethod, headers: [String: String] = [:]) -> HTTPRequest {
        var request = HTTPRequest(url: URL(string: "https://api.test/payments")!)
        request.method = HTTPMethod(rawValue: method.rawValue)
        for (name, value) in headers { request.headerFields[HTTPField.Name(name)] = value }
        return request
    }

    @Test func everyAttemptOfOneCallGetsTheSameKey() async throws {
        let behavior = IdempotencyKeyBehavior()
        let context = RequestContext(requestName: "POST /payments")
        let first = try await behavior.modify(request: request(.post), context: context)
        let second = try await behavior.modify(request: request(.post), context: context)
        let key = try #require(first.headerFields["Idempotency-Key"])
        #expect(key == context.callID.uuidString.lowercased())
        #expect(second.headerFields["Idempotency-Key"] == key)
    }

    @Test func everyCallGetsANewKey() async throws {
        let behavior = IdempotencyKeyBehavior()
        var keys: Set<String> = []
        for _ in 0..<100 {
            let sent = try await behavior.modify(request: request(.patch), context: RequestContext())
            keys.insert(try #require(sent.headerFields["Idempotency-Key"]))
        }
        #expect(keys.count == 100)
    }

    @Test(arguments: [HTTPMethod.get, .put, .delete, .head])
    func idempotentMethodsAreLeftAlone(method: HTTPMethod) async throws {
        let sent = try await IdempotencyKeyBehavior().modify(request: request(method), context: RequestContext())
        #expect(sent.headerFields["Idempotency-Key"] == nil)
    }

    @Test func aKeyTheCallerSetIsKept() async throws {
        let sent = try await IdempotencyKeyBehavior().modify(
            request: request(.post, headers: ["Idempotency-Key": "order-42"]), context: RequestContext())
        #expect(sent.headerFields["Idempotency-Key"] == "order-42")
    }

    @Test func methodsAndHeaderNameAreConfigurable() async throws {
        let behavior = IdempotencyKeyBehavior(headerName: "X-Request-Key", methods: [.put])
        let sent = try await behavior.modify(request: request(.put), context: RequestContext())
        #expect(sent.headerFields["X-Request-Key"] != nil)
        #expect(sent.headerFields["Idempotency-Key"] == nil)
    }
}

/// The key and the retry policy together, through a client and an in-memory transport.
@Suite struct IdempotencyKeyRetryTests {
    func flaky503ThenOK() -> MockTransport {
        let attempts = LockedCounter()
        return MockTransport { request in
            attempts.increment()
            return (HTTPResponse(status: .init(code: attempts.value == 1 ? 503 : 200)), Data())
        }
    }

    @Test func aPOSTWithAKeyIsRetriedWithTheSameKey() async throws {
        let transport = flaky503ThenOK()
        let client = try makeClient(transport: transport, behavior: .retry(clock: TestClock(), random: { 0 }))
        try await client.send(NetworkRequest<Void>(.post, path: "/payments"), behavior: .idempotencyKey())
        #expect(transport.requestCount == 2)
        let keys = transport.requests.map { $0.headerFields["Idempotency-Key"] }
        #expect(keys[0] != nil)
        #expect(keys[0] == keys[1])
    }

    @Test func aPOSTWithoutAKeyIsNotRetried() async throws {
        let transport = flaky503ThenOK()
        let client = try makeClient(transport: transport, behavior: .retry(clock: TestClock(), random: { 0 }))
        let error = try await expectNetworkError {
            try await client.send(NetworkRequest<Void>(.post, path: "/payments"))
        }
        #expect(error?.kind == .unacceptableStatus(503))
        #expect(transport.requestCount == 1)
    }

    @Test func twoCallsGetTwoKeys() async throws {
        let transport = answering()
        let client = try makeClient(transport: transport, behavior: .idempotencyKey())
        try await client.send(NetworkRequest<Void>(.post, path: "/a"))
        try await client.send(NetworkRequest<Void>(.post, path: "/a"))
        let keys = Set(transport.requests.compactMap { $0.headerFields["Idempotency-Key"] })
        #expect(keys.count == 2)
    }
}
