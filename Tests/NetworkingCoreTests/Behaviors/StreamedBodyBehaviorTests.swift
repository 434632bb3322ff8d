import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The behaviors that keep, share, count or measure bodies, on streamed calls: a streamed body has one reader and
/// arrives after the head.
@Suite struct StreamedBodyBehaviorTests {
    private static let chunks = [Data("pay".utf8), Data("load".utf8)]

    private static func read(_ streamed: StreamedResponse) async throws -> Data {
        var body = Data()
        for try await chunk in streamed { body.append(chunk) }
        return body
    }

    @Test func theCacheDoesNotStoreAStreamedBodySoALaterSendGetsTheWholeBody() async throws {
        let transport = MockTransport().stub(
            .get, "/file", .streamed(Self.chunks, headers: ["Cache-Control": "max-age=60"]),
            .data(Data("payload".utf8), headers: ["Cache-Control": "max-age=60"]))
        let events = LockedBox<[HTTPCacheEvent.Kind]>([])
        let client = try makeClient(
            transport: transport, behavior: .httpCache { event in events.withLock { $0.append(event.kind) } })
        #expect(try await Self.read(client.stream(NetworkRequest<Data>(path: "/file"))) == Data("payload".utf8))
        #expect(events.current.contains(.notStored))
        #expect(try await client.send(NetworkRequest<Data>(path: "/file")) == Data("payload".utf8))
        #expect(transport.requestCount == 2)
    }

    @Test func identicalStreamCallsAreNeverCoalesced() async throws {
        let transport = MockTransport().stub(.get, "/events", .streamed(Self.chunks, end: .stall))
        let client = try makeClient(transport: transport, behavior: .coalescing())
        let first = try await client.stream(NetworkRequest<Data>(path: "/events"))
        let second = try await client.stream(NetworkRequest<Data>(path: "/events"))
        #expect(transport.requestCount == 2)
        #expect(first.body != second.body)
        first.body.cancel()
        second.body.cancel()
    }

    @Test func aStreamHoldsItsConcurrencySlotUntilItEnds() async throws {
        let transport = MockTransport()
            .stub(.get, "/events", .streamed(Self.chunks))
            .stub(.get, "/other", .data(Data("x".utf8)))
        let settings = try ConcurrencyLimitSettings(maximumInFlight: 1, maximumQueueLength: 0)
        let client = try makeClient(transport: transport, behavior: .concurrencyLimit(settings))
        let streamed = try await client.stream(NetworkRequest<Data>(path: "/events"))
        let refused = try await expectNetworkError { try await client.send(NetworkRequest<Data>(path: "/other")) }
        #expect(refused?.underlyingError is ConcurrencyLimitExceededError)
        #expect(try await Self.read(streamed) == Data("payload".utf8))
        #expect(try await client.send(NetworkRequest<Data>(path: "/other")) == Data("x".utf8))
    }

    @Test func metricsMeasureAStreamWhenItEnds() async throws {
        let transport = MockTransport()
            .stub(.get, "/events", .streamed(Self.chunks))
            .stub(.get, "/stalled", .streamed(Self.chunks, end: .stall))
        let records = LockedBox<[AttemptMetrics]>([])
        let client = try makeClient(transport: transport, behavior: .metrics { m in records.withLock { $0.append(m) } })
        let streamed = try await client.stream(NetworkRequest<Data>(path: "/events"))
        #expect(records.current.isEmpty, "the attempt is not over while its body streams")
        _ = try await Self.read(streamed)
        try await BehaviorFakes.waitUntil { records.current.count == 1 }
        #expect(records.current.first?.outcome == .status(200))
        #expect(records.current.first?.bytesReceived == 7)
        #expect(records.current.first?.timeToResponseHead != nil)

        let stalled = try await client.stream(NetworkRequest<Data>(path: "/stalled"))
        stalled.body.cancel()
        try await BehaviorFakes.waitUntil { records.current.count == 2 }
        #expect(records.current.last?.outcome == .cancelled)
    }
}
