import Foundation
import Networking
import NetworkingTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The behavior alone: its `modify` hook, called directly.
@Suite struct IdempotencyKeyBehaviorTests {
    func request(_ method: HTTPMethod, headers: [String: String] = [:]) -> URLRequest {
        var request = URLRequest(url: URL(string: "https://api.test/payments")!)
        request.httpMethod = method.rawValue
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    @Test func everyAttemptOfOneCallGetsTheSameKey() async throws {
        let behavior = IdempotencyKeyBehavior()
        let context = RequestContext(requestName: "POST /payments")
        let first = try await behavior.modify(request: request(.post), context: context)
        let second = try await behavior.modify(request: request(.post), context: context)
        let key = try #require(first.value(forHTTPHeaderField: "Idempotency-Key"))
        #expect(key == context.callID.uuidString.lowercased())
        #expect(second.value(forHTTPHeaderField: "Idempotency-Key") == key)
    }

    @Test func everyCallGetsANewKey() async throws {
        let behavior = IdempotencyKeyBehavior()
        var keys: Set<String> = []
        for _ in 0..<100 {
            let sent = try await behavior.modify(request: request(.patch), context: RequestContext())
            keys.insert(try #require(sent.value(forHTTPHeaderField: "Idempotency-Key")))
        }
        #expect(keys.count == 100)
    }

    @Test(arguments: [HTTPMethod.get, .put, .delete, .head])
    func idempotentMethodsAreLeftAlone(method: HTTPMethod) async throws {
        let sent = try await IdempotencyKeyBehavior().modify(request: request(method), context: RequestContext())
        #expect(sent.value(forHTTPHeaderField: "Idempotency-Key") == nil)
    }

    @Test func aKeyTheCallerSetIsKept() async throws {
        let sent = try await IdempotencyKeyBehavior().modify(
            request: request(.post, headers: ["Idempotency-Key": "order-42"]), context: RequestContext())
        #expect(sent.value(forHTTPHeaderField: "Idempotency-Key") == "order-42")
    }

    @Test func methodsAndHeaderNameAreConfigurable() async throws {
        let behavior = IdempotencyKeyBehavior(headerName: "X-Request-Key", methods: [.put])
        let sent = try await behavior.modify(request: request(.put), context: RequestContext())
        #expect(sent.value(forHTTPHeaderField: "X-Request-Key") != nil)
        #expect(sent.value(forHTTPHeaderField: "Idempotency-Key") == nil)
    }
}
