import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

/// `CoalescingBehavior` in a client: one transport call, each caller decoding the shared body its own way.
@Suite struct CoalescingClientTests {
    @Test func callersOfDifferentResponseTypesShareOneCallAndEachDecodes() async throws {
        // Given: a transport that holds its answer until three callers wait; every request says the same `Accept`
        let gate = Gate()
        let transport = MockTransport { request in
            await gate.wait()
            return (HTTPResponse(status: .ok, url: request.url), Data(#"{"id":42,"name":"Ada"}"#.utf8))
        }
        let coalescing = CoalescingBehavior()
        let client = try makeClient(transport: transport, behavior: coalescing)
        let accept: HTTPFields = [.accept: "application/json"]
        // When
        async let user = client.send(NetworkRequest<User>(path: "/users/42", headers: accept))
        async let raw = client.send(NetworkRequest<Data>(path: "/users/42", headers: accept))
        async let text = client.send(NetworkRequest<String>(path: "/users/42", headers: accept))
        try await BehaviorFakes.waitUntil { coalescing.table.calls.first?.waiterCount == 3 }
        gate.open()
        // Then
        #expect(try await user == User(id: 42, name: "Ada"))
        #expect(try await raw == Data(#"{"id":42,"name":"Ada"}"#.utf8))
        #expect(try await text == #"{"id":42,"name":"Ada"}"#)
        #expect(transport.requests.count == 1)
    }

    @Test func theDefaultAcceptIsPartOfTheKeyBecauseItIsSent() async throws {
        // A JSON request sends `Accept: application/json` by default and a `Data` one sends none: two questions.
        let gate = Gate()
        let transport = MockTransport { request in
            await gate.wait()
            return (HTTPResponse(status: .ok, url: request.url), Data((request.headerFields[.accept] ?? "none").utf8))
        }
        let coalescing = CoalescingBehavior()
        let client = try makeClient(transport: transport, behavior: coalescing)
        var withDefault = NetworkRequest<Data>(path: "/users/42")
        withDefault.defaultAccept = "application/json"  // as a JSON-decoded request has
        async let json = client.send(withDefault)
        async let raw = client.send(NetworkRequest<Data>(path: "/users/42"))
        try await BehaviorFakes.waitUntil { coalescing.table.calls.count == 2 }
        gate.open()
        #expect(try await json == Data("application/json".utf8))
        #expect(try await raw == Data("none".utf8))
        #expect(transport.requests.count == 2)
    }

    @Test func aDecodingFailureIsTheFailingCallersOwn() async throws {
        let gate = Gate()
        let transport = MockTransport { request in
            await gate.wait()
            return (HTTPResponse(status: .ok, url: request.url), Data(#"{"id":42,"name":"Ada"}"#.utf8))
        }
        let coalescing = CoalescingBehavior()
        let client = try makeClient(transport: transport, behavior: coalescing)
        struct Order: Decodable, Sendable { let total: Int }
        async let user = client.send(NetworkRequest<User>(path: "/users/42"))
        let order = Task { try await client.response(for: NetworkRequest<Order>(path: "/users/42")) }
        try await BehaviorFakes.waitUntil { coalescing.table.calls.first?.waiterCount == 2 }
        gate.open()
        #expect(try await user == User(id: 42, name: "Ada"))
        let error = try await expectNetworkError { try await order.value }
        #expect(error?.kind == .decoding)
        #expect(transport.requests.count == 1)
    }

    @Test func placedInsideAuthorizationTheKeySeesEachUsersToken() async throws {
        let transport = MockTransport { request in
            (HTTPResponse(status: .ok, url: request.url), Data((request.headerFields[.authorization] ?? "").utf8))
        }
        let coalescing = CoalescingBehavior()
        let alice = try makeClient(
            transport: transport,
            behavior: CombinedBehavior([.authorization(.bearer) { "alice" }, coalescing]))
        let bob = try makeClient(
            transport: transport,
            behavior: CombinedBehavior([.authorization(.bearer) { "bob" }, coalescing]))
        async let a = alice.send(NetworkRequest<String>(path: "/me"))
        async let b = bob.send(NetworkRequest<String>(path: "/me"))
        #expect(try await a == "Bearer alice")
        #expect(try await b == "Bearer bob")
    }

    @Test func aHeaderAddedByAPerRequestBehaviorIsInTheKey() async throws {
        // Coalescing runs next to the wire, inside every other behavior, client-wide or per request: it sees the
        // headers a per-request behavior adds, so two tenants never share an answer.
        let gate = Gate()
        let transport = MockTransport { request in
            await gate.wait()
            return (HTTPResponse(status: .ok, url: request.url), Data((request.headerFields["X-Tenant"] ?? "").utf8))
        }
        let coalescing = CoalescingBehavior()
        let client = try makeClient(transport: transport, behavior: coalescing)
        async let a = client.send(NetworkRequest<String>(path: "/me"), behavior: .headers(["X-Tenant": "a"]))
        async let b = client.send(NetworkRequest<String>(path: "/me"), behavior: .headers(["X-Tenant": "b"]))
        try await BehaviorFakes.waitUntil { coalescing.table.calls.count == 2 }
        gate.open()
        #expect(try await [a, b] == ["a", "b"])
        #expect(transport.requests.count == 2)
        // The same tenant twice shares one call.
        let gate2 = Gate()
        let shared = MockTransport { request in
            await gate2.wait()
            return (HTTPResponse(status: .ok, url: request.url), Data((request.headerFields["X-Tenant"] ?? "").utf8))
        }
        let client2 = try makeClient(transport: shared, behavior: coalescing)
        async let c = client2.send(NetworkRequest<String>(path: "/me"), behavior: .headers(["X-Tenant": "c"]))
        async let d = client2.send(NetworkRequest<String>(path: "/me"), behavior: .headers(["X-Tenant": "c"]))
        try await BehaviorFakes.waitUntil { coalescing.table.calls.first?.waiterCount == 2 }
        gate2.open()
        #expect(try await [c, d] == ["c", "c"])
        #expect(shared.requests.count == 1)
    }
}
