import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

/// `NetworkClient.stream` through the chain, on `MockTransport` and a manual `TestClock`.
@Suite struct NetworkClientStreamTests {
    static let chunks = [Data("one ".utf8), Data("two ".utf8), Data("three".utf8)]

    static func read(_ streamed: StreamedResponse) async throws -> String {
        var text = ""
        for try await chunk in streamed { text += String(decoding: chunk, as: UTF8.self) }
        return text
    }

    @Test func chunksArriveOnTheTransportsClockThroughTheChain() async throws {
        let clock = TestClock(mode: .manual)
        let mock = MockTransport(clock: clock).stub(.get, "/feed", .streamed(Self.chunks, every: .seconds(1)))
        let client = try makeClient(transport: mock, clock: clock, timeout: .seconds(5))
        let streamed = try await client.stream(NetworkRequest<Data>(path: "/feed"))
        #expect(streamed.response.status == .ok)
        let reader = Task { try await Self.read(streamed) }
        for _ in Self.chunks {
            await clock.waitForSleepers(1)  // the producer's interval; the idle and deadline limits are timers
            clock.advance(by: .seconds(1))
        }
        #expect(try await reader.value == "one two three")
        try await BehaviorFakes.waitUntil { mock.openStreamCount == 0 }
    }

    @Test func noByteForTheAttemptTimeoutFailsTheStreamAsIdle() async throws {
        let clock = TestClock(mode: .manual)
        let mock = MockTransport(clock: clock).stub(.get, "/feed", .streamed([Data("a".utf8)], end: .stall))
        let client = try makeClient(transport: mock, clock: clock, timeout: .seconds(3), deadline: nil)
        let streamed = try await client.stream(NetworkRequest<Data>(path: "/feed"))
        var iterator = streamed.makeAsyncIterator()
        #expect(try await iterator.next() == Data("a".utf8))
        await clock.waitForSleepers(1)  // the producer, stalled
        #expect(clock.pendingTimerCount == 1)  // the idle limit
        clock.advance(by: .seconds(2))
        #expect(mock.openStreamCount == 1)  // 2 s of silence: still fine
        clock.advance(by: .seconds(1))
        let error = try await expectNetworkError { try await iterator.next() }
        #expect(error?.kind == .timedOut(.attempt))
        #expect(error?.requestName == "GET /feed")
        try await BehaviorFakes.waitUntil { mock.openStreamCount == 0 }  // the producer is gone
    }

    @Test func theCallDeadlineStillEndsAStreamThatKeepsSending() async throws {
        let clock = TestClock(mode: .manual)
        let many = Array(repeating: Data("x".utf8), count: 100)
        let mock = MockTransport(clock: clock).stub(.get, "/feed", .streamed(many, every: .seconds(1)))
        let client = try makeClient(transport: mock, clock: clock, timeout: .seconds(5), deadline: .seconds(10))
        let streamed = try await client.stream(NetworkRequest<Data>(path: "/feed"))
        let reader = Task { try await Self.read(streamed) }
        for _ in 0..<10 {
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(1))
        }
        let error = try await expectNetworkError { try await reader.value }
        #expect(error?.kind == .timedOut(.call))
        try await BehaviorFakes.waitUntil { mock.openStreamCount == 0 }
    }

    @Test func aBrokenTransferReachesTheReaderAsANetworkErrorNamingTheRequest() async throws {
        let cut = TransportError(.connectionLost, "the connection was lost")
        let mock = MockTransport().stub(.get, "/feed", .streamed(Self.chunks, end: .fail(cut)))
        let client = try makeClient(transport: mock)
        let streamed = try await client.stream(NetworkRequest<Data>(path: "/feed"))
        let error = try await expectNetworkError { try await Self.read(streamed) }
        #expect(error?.kind == .transport(.connectionLost))
        #expect(error?.requestName == "GET /feed")
    }

    @Test func cancellingTheReaderStopsTheProducerAndLeavesNoTask() async throws {
        let clock = TestClock(mode: .manual)
        let mock = MockTransport(clock: clock).stub(.get, "/feed", .streamed(Self.chunks, end: .stall))
        let client = try makeClient(transport: mock, clock: clock)
        let streamed = try await client.stream(NetworkRequest<Data>(path: "/feed"))
        let reader = Task { try await Self.read(streamed) }
        await clock.waitForSleepers(1)
        reader.cancel()
        await #expect(throws: CancellationError.self) { try await reader.value }
        try await BehaviorFakes.waitUntil {
            mock.openStreamCount == 0 && clock.pendingSleepCount == 0 && clock.pendingTimerCount == 0
        }
    }

    @Test func retryReRunsAStreamOnlyBeforeItsHeadReachesTheCaller() async throws {
        let mock = MockTransport().stub(
            .get, "/feed", .serviceUnavailable(),
            .streamed(Self.chunks, end: .fail(TransportError(.connectionLost, "cut"))))
        let client = try makeClient(
            transport: mock, behavior: .retry(clock: TestClock()), clock: TestClock(mode: .manual))
        let streamed = try await client.stream(NetworkRequest<Data>(path: "/feed"))
        #expect(mock.requestCount == 2)  // the 503 was retried
        _ = try await expectNetworkError { try await Self.read(streamed) }
        #expect(mock.requestCount == 2)  // a failure after the head is the reader's, never retried
    }

    @Test func anUnacceptableStatusThrowsWithTheBodysStart() async throws {
        let mock = MockTransport().stub(.get, "/feed", .streamed([Data("{\"error\":1}".utf8)], status: 404))
        let client = try makeClient(transport: mock)
        let error = try await expectNetworkError { try await client.stream(NetworkRequest<Data>(path: "/feed")) }
        #expect(error?.kind == .unacceptableStatus(404))
        #expect(error?.body == Data("{\"error\":1}".utf8))
        try await BehaviorFakes.waitUntil { mock.openStreamCount == 0 }
    }

    @Test func aTransportAnsweringInMemoryIsReadAsOneChunk() async throws {
        struct InMemoryTransport: HTTPTransport {
            func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
                (HTTPResponse(status: .ok), .data(Data("whole".utf8)))
            }
        }
        let client = try makeClient(transport: InMemoryTransport())
        let streamed = try await client.stream(NetworkRequest<Data>(path: "/feed"))
        var chunks: [Data] = []
        for try await chunk in streamed { chunks.append(chunk) }
        #expect(chunks == [Data("whole".utf8)])
    }

    @Test func theActivityCounterStaysBusyUntilTheStreamEnds() async throws {
        let events = LockedBox<[Bool]>([])
        let counter = ActivityCounterBehavior(onChange: { busy in events.withLock { $0.append(busy) } })
        let mock = MockTransport().stub(.get, "/feed", .streamed(Self.chunks))
        let client = try makeClient(transport: mock, behavior: counter)
        let streamed = try await client.stream(NetworkRequest<Data>(path: "/feed"))
        #expect(events.current == [true])
        #expect(try await Self.read(streamed) == "one two three")
        #expect(events.current == [true, false])
        #expect(counter.store.count == 0)
    }

    @Test func theActivityCounterEndsWhenTheStreamIsDropped() async throws {
        let counter = ActivityCounterBehavior()
        let mock = MockTransport().stub(.get, "/feed", .streamed(Self.chunks, end: .stall))
        let client = try makeClient(transport: mock, behavior: counter)
        do {
            let streamed = try await client.stream(NetworkRequest<Data>(path: "/feed"))
            #expect(counter.store.count == 1)
            _ = streamed.response
        }
        #expect(counter.store.count == 0)
    }

    @Test func loggingShowsTheHeadThenTheByteCountNeverTheBody() async throws {
        let lines = LockedBox<[String]>([])
        let sink = LogSink { line in lines.withLock { $0.append(line) } }
        let mock = MockTransport().stub(.get, "/feed", .streamed(Self.chunks))
        let client = try makeClient(
            transport: mock, behavior: .logging(to: sink, logsStart: false, bodies: .upTo(1000), clock: TestClock()))
        let streamed = try await client.stream(NetworkRequest<Data>(path: "/feed"))
        #expect(lines.current.count == 1)
        #expect(lines.current.first?.contains("200 GET https://api.example.test/v1/feed in 0 ms, streaming") == true)
        _ = try await Self.read(streamed)
        try await BehaviorFakes.waitUntil { lines.current.count == 2 }
        #expect(
            lines.current.last?.hasSuffix("stream finished GET https://api.example.test/v1/feed in 0 ms, 13 bytes")
                == true)
        #expect(!lines.current.joined().contains("three"))
    }

    final class EndRecorder: BackgroundTaskProvider {
        let ended = LockedBox(0)
        func beginTask(named name: String, expirationHandler: @escaping @Sendable () -> Void) async -> Int? { 1 }
        func endTask(_ identifier: Int) { ended.withLock { $0 += 1 } }
    }

    @Test func theBackgroundTaskLastsUntilTheStreamEndsAndRequestBehaviorsApply() async throws {
        let provider = EndRecorder()
        let mock = MockTransport().stub(.get, "/feed", .streamed(Self.chunks, end: .stall))
        let client = try makeClient(
            transport: mock,
            behavior: CombinedBehavior([
                .backgroundTask(provider: provider), .authorization(.bearer) { "secret" }, .headers(["X-App": "1"]),
            ]))
        let streamed = try await client.stream(NetworkRequest<Data>(path: "/feed"))
        #expect(provider.ended.current == 0)
        #expect(mock.lastRequest?.header(.authorization) == "Bearer secret")
        #expect(mock.lastRequest?.header("X-App") == "1")
        streamed.body.cancel()
        #expect(provider.ended.current == 1)
    }
}
