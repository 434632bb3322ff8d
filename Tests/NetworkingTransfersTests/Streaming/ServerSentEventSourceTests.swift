import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

@Suite struct ServerSentEventSourceTests {
    struct Refused: Error {}

    /// Serves the scripted connections in turn and records the last event ID each one was opened with.
    final class Server: Sendable {
        let opened = LockedBox<[String?]>([])
        let scripts: [(pieces: [String], fail: Bool)]

        init(_ scripts: [(pieces: [String], fail: Bool)]) { self.scripts = scripts }

        func open(_ lastEventID: String?) throws -> AsyncThrowingStream<Data, any Error> {
            let index = opened.withLock {
                $0.append(lastEventID)
                return $0.count - 1
            }
            guard index < scripts.count else { throw Refused() }
            return StreamingSequenceTests.chunks(scripts[index].pieces, thenFail: scripts[index].fail)
        }
    }

    static func collect(_ source: ServerSentEventSource, limit: Int = 100) async throws -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for try await event in source {
            events.append(event)
            if events.count == limit { break }
        }
        return events
    }

    @Test func reconnectsWithTheLastEventIDAfterTheStreamEndsOrFails() async throws {
        // Given
        let server = Server([
            (["id: 1\ndata: a\n\ndata: half"], false),
            (["id: 2\ndata: b\n\n"], true),
            (["data: c\n\n"], false),
        ])
        let clock = TestClock()
        let source = try ServerSentEventSource(clock: clock) { try server.open($0) }
        // When
        let events = try await Self.collect(source, limit: 3)
        // Then
        #expect(events.map(\.data) == ["a", "b", "c"])
        #expect(events.map(\.id) == ["1", "2", "2"])
        #expect(server.opened.current == [nil, "1", "2"])
        #expect(clock.sleeps == [.seconds(3), .seconds(3)])
    }

    @Test func waitsTheReconnectionTimeTheStreamSetWithRetry() async throws {
        let server = Server([(["retry: 250\ndata: a\n\n"], false), (["data: b\n\n"], false)])
        let clock = TestClock()
        let source = try ServerSentEventSource(clock: clock, reconnectionTime: .seconds(1)) { try server.open($0) }
        let events = try await Self.collect(source, limit: 2)
        #expect(events.map(\.data) == ["a", "b"])
        #expect(clock.sleeps == [.milliseconds(250)])
        #expect(server.opened.current == [nil, nil])
    }

    @Test func anErrorFromOpenEndsTheSequenceWithoutReconnecting() async throws {
        let server = Server([])
        let clock = TestClock()
        await #expect(throws: Refused.self) {
            _ = try await Self.collect(try ServerSentEventSource(clock: clock) { try server.open($0) })
        }
        #expect(server.opened.current.count == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test func stopsAfterTheMaximumReconnectionsWithoutAnEventWithTheLastReadError() async throws {
        let server = Server([(["data: a\n\n"], false), ([], true), ([], true), ([], true)])
        let source = try? ServerSentEventSource(clock: TestClock(), maximumReconnections: 2) { try server.open($0) }
        var events: [ServerSentEvent] = []
        await #expect(throws: StreamingSequenceTests.Broken.self) {
            for try await event in try #require(source) { events.append(event) }
        }
        #expect(events.map(\.data) == ["a"])
        // The first connection, then two reconnections that fail before any event; a third is not tried.
        #expect(server.opened.current.count == 3)
    }

    @Test func cancellationDuringTheWaitEndsTheSequence() async throws {
        let server = Server([(["data: a\n\n"], false), (["data: b\n\n"], false)])
        let clock = TestClock(mode: .manual)
        let source = try ServerSentEventSource(clock: clock) { try server.open($0) }
        let task = Task { try await Self.collect(source) }
        await clock.waitForSleepers()
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(server.opened.current.count == 1)
    }

    @Test(arguments: [(Duration.milliseconds(-1), nil as Int?), (.seconds(1), -1)])
    func rejectsNegativeSettings(reconnectionTime: Duration, maximumReconnections: Int?) {
        #expect(throws: BehaviorSettingsError.self) {
            _ = try ServerSentEventSource(
                reconnectionTime: reconnectionTime, maximumReconnections: maximumReconnections
            ) {
                _ in AsyncThrowingStream { $0.finish() }
            }
        }
    }
}
