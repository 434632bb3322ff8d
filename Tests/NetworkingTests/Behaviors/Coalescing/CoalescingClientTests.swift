import Foundation
import Networking
import NetworkingTesting
import Testing

/// `CoalescingBehavior` in a client: one transport call, each caller decoding the shared body its own way.
@Suite struct CoalescingClientTests {
    @Test func callersOfDifferentResponseTypesShareOneCallAndEachDecodes() async throws {
        // Given: a transport that holds its answer until three callers wait
        let gate = Gate()
        let transport = MockTransport { request in
            await gate.wait()
            return (HTTPResponse(status: .ok, url: request.url), Data(#"{"id":42,"name":"Ada"}"#.utf8))
        }
        let coalescing = CoalescingBehavior()
        let client = makeClient(transport: transport, behavior: coalescing)
        // When
        async let user = client.send(NetworkRequest<User>(path: "/users/42"))
        async let raw = client.send(NetworkRequest<Data>(path: "/users/42"))
        async let text = client.send(NetworkRequest<String>(path: "/users/42"))
        await BehaviorFakes.waitUntil { coalescing.table.calls.first?.waiterCount == 3 }
        gate.open()
        // Then
        #expect(try await user == User(id: 42, name: "Ada"))
        #expect(try await raw == Data(#"{"id":42,"name":"Ada"}"#.utf8))
        #expect(try await text == #"{"id":42,"name":"Ada"}"#)
        #expect(transport.requests.count == 1)
    }

    @Test func aDecodingFailureIsTheFailingCallersOwn() async throws {
        let gate = Gate()
        let transport = MockTransport { request in
            await gate.wait()
            return (HTTPResponse(status: .ok, url: request.url), Data(#"{"id":42,"name":"Ada"}"#.utf8))
        }
        let coalescing = CoalescingBehavior()
        let client = makeClient(transport: transport, behavior: coalescing)
        struct Order: Decodable, Sendable { let total: Int }
        async let user = client.send(NetworkRequest<User>(path: "/users/42"))
        let order = Task { try await client.response(for: NetworkRequest<Order>(path: "/users/42")) }
        await BehaviorFakes.waitUntil { coalescing.table.calls.first?.waiterCount == 2 }
        gate.open()
        #expect(try await user == User(id: 42, name: "Ada"))
        let error = await expectNetworkError { try await order.value }
        #expect(error?.kind == .decoding)
        #expect(transport.requests.count == 1)
    }

    @Test func placedInsideAuthorizationTheKeySeesEachUsersToken() async throws {
        let transport = MockTransport { request in
            (HTTPResponse(status: .ok, url: request.url), Data((request.headerFields[.authorization] ?? "").utf8))
        }
        let coalescing = CoalescingBehavior()
        let alice = makeClient(
            transport: transport,
            behavior: CombinedBehavior([.authorization(.bearer) { "alice" }, coalescing]))
        let bob = makeClient(
            transport: transport,
            behavior: CombinedBehavior([.authorization(.bearer) { "bob" }, coalescing]))
        async let a = alice.send(NetworkRequest<String>(path: "/me"))
        async let b = bob.send(NetworkRequest<String>(path: "/me"))
        #expect(try await a == "Bearer alice")
        #expect(try await b == "Bearer bob")
    }

    @Test func aHeaderAddedByAPerRequestBehaviorIsNotInTheKey() async throws {
        // Per-request behaviors run inside the client-wide coalescing, which therefore never sees their headers.
        let gate = Gate()
        let transport = MockTransport { request in
            await gate.wait()
            return (HTTPResponse(status: .ok, url: request.url), Data((request.headerFields["X-Tenant"] ?? "").utf8))
        }
        let coalescing = CoalescingBehavior()
        let client = makeClient(transport: transport, behavior: coalescing)
        async let a = client.send(NetworkRequest<String>(path: "/me"), behavior: .headers(["X-Tenant": "a"]))
        async let b = client.send(NetworkRequest<String>(path: "/me"), behavior: .headers(["X-Tenant": "b"]))
        await BehaviorFakes.waitUntil { coalescing.table.calls.first?.waiterCount == 2 }
        gate.open()
        let answers = try await [a, b]
        #expect(answers[0] == answers[1])
        #expect(transport.requests.count == 1)
        // On the request itself, the header is in the key.
        async let c = client.send(NetworkRequest<String>(path: "/me", headers: ["X-Tenant": "c"]))
        async let d = client.send(NetworkRequest<String>(path: "/me", headers: ["X-Tenant": "d"]))
        #expect(try await [c, d] == ["c", "d"])
        #expect(transport.requests.count == 3)
    }
}
