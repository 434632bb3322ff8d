import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `MetricsBehavior` in a client on a `MockTransport`, timed on a `TestClock` that the retry back-off and the mock's
/// delays advance: every attempt's numbers are exact.
@Suite struct MetricsBehaviorTests {
    /// Collects what the sink receives.
    @Test func eachAttemptIsMeasuredOnceWithItsWaitHeadAndBytes() async throws {
        let clock = TestClock()
        let count = LockedBox(0)
        let transport = MockTransport(clock: clock) { request in
            let attempt = count.withLock {
                $0 += 1
                return $0
            }
            try await clock.sleep(for: .seconds(2))
            return (HTTPResponse(status: attempt == 1 ? 503 : 200, url: request.url), Data("attempt \(attempt)".utf8))
        }
        let collector = MetricsCollector()
        let client = try makeClient(
            transport: transport,
            behavior: CombinedBehavior([
                .metrics(clock: clock) { collector.record($0) }, .retry(clock: clock, random: { 0.5 }),
            ]))
        let body = try await client.send(NetworkRequest<String>(path: "/users"))
        #expect(body == "attempt 2")
        let metrics = collector.all
        try #require(metrics.count == 2)
        #expect(metrics.map(\.attempt) == [1, 2])
        #expect(metrics.map(\.outcome) == [.status(503), .status(200)])
        #expect(metrics[0].chainWait == .zero)
        // The second attempt waited for the first (2 s) and the back-off (0.5 × 0.5 s).
        #expect(metrics[1].chainWait == .milliseconds(2250))
        #expect(metrics.map(\.duration) == [.seconds(2), .seconds(2)])
        #expect(metrics.map(\.timeToResponseHead) == [.seconds(2), .seconds(2)])
        #expect(metrics.map(\.bytesReceived) == [9, 9])
        #expect(metrics.allSatisfy { $0.bytesSent == 0 && $0.reusedConnection == nil && $0.method == .get })
        #expect(metrics.allSatisfy { $0.requestName == "GET /users" && $0.url?.path == "/v1/users" })
        #expect(Set(metrics.map(\.callID)).count == 1)
    }

    @Test func bodyBytesSentAreTheRequestBody() async throws {
        let collector = MetricsCollector()
        let client = try makeClient(transport: answering(201, body: "{}"), behavior: .metrics { collector.record($0) })
        let request = NetworkRequest<Data>(.post, path: "/items", body: .data(Data(repeating: 7, count: 27)))
        _ = try await client.send(request)
        #expect(collector.all.map(\.bytesSent) == [27])
        #expect(collector.all.map(\.bytesReceived) == [2])
        #expect(collector.all.map(\.outcome) == [.status(201)])
    }

    @Test func refusedFailedAndCancelledAttemptsAreDeliveredToo() async throws {
        let collector = MetricsCollector()
        let refusing = try makeClient(
            transport: answering(),
            behavior: CombinedBehavior([
                .metrics { collector.record($0) }, .modifyRequest { $0.headerFields["X-Bad"] = "a\r\nb" },
            ]))
        _ = try await expectNetworkError { try await refusing.send(NetworkRequest<Void>(path: "/a")) }
        let failing = try makeClient(
            transport: MockTransport { _ in throw URLError(.cannotConnectToHost) },
            behavior: .metrics { collector.record($0) })
        _ = try await expectNetworkError { try await failing.send(NetworkRequest<Void>(path: "/b")) }
        let started = LockedBox(false)
        let hanging = try makeClient(
            transport: MockTransport { _ in
                started.withLock { $0 = true }
                await BehaviorFakes.suspendUntilCancelled()
                throw CancellationError()
            },
            behavior: .metrics { collector.record($0) })
        let call = Task { try await hanging.send(NetworkRequest<Void>(path: "/c")) }
        try await BehaviorFakes.waitUntil { started.current }
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(
            collector.all.map(\.outcome) == [
                .failed(.invalidRequest), .failed(.transport(.cannotConnect)), .cancelled,
            ])
        #expect(collector.all.allSatisfy { $0.timeToResponseHead == nil && $0.attempt == 1 })
    }

    @Test func unacceptableStatusCountsAsAResponse() async throws {
        let collector = MetricsCollector()
        let client = try makeClient(
            transport: answering(404, body: "missing"), behavior: .metrics { collector.record($0) })
        let error = try await expectNetworkError { try await client.send(NetworkRequest<Void>(path: "/gone")) }
        #expect(error?.kind == .unacceptableStatus(404))
        #expect(collector.all.map(\.outcome) == [.status(404)])
        #expect(collector.all.map(\.bytesReceived) == [7])
    }

    @Test func descriptionReadsAsOneLine() {
        let metrics = AttemptMetrics(
            requestName: "GET /users/42", callID: UUID(), attempt: 2, method: .get, url: nil,
            chainWait: .milliseconds(500), timeToResponseHead: .milliseconds(20), duration: .milliseconds(30),
            bytesSent: 0, bytesReceived: 512, outcome: .status(200), reusedConnection: nil)
        #expect(
            metrics.description
                == "GET /users/42 #2 status(200) wait 0.5 s head 0.02 s total 0.03 s sent 0 B received 512 B")
        #expect(
            AttemptMetrics.Outcome.failed(.transport(.cannotConnect)).description == "failed(transport(cannotConnect))")
    }
}
