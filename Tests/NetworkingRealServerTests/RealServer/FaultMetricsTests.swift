import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// `MetricsBehavior` over the URL session transport: the transport notes the head and counts the bytes itself,
    /// on Linux too, where Foundation's task metrics never arrive.
    @Suite struct FaultMetricsTests {
        @Test func headArrivesBeforeADrippedBodyAndBytesAreCounted() async throws {
            let key = FaultServer.newKey("metrics-drip")
            let collector = MetricsCollector()
            let client = try await FaultServer.client(behavior: .metrics { collector.record($0) })
            // The head comes at once, then 6 bytes 150 ms apart.
            let body = try await client.send(
                NetworkRequest<Data>(path: "/drip", query: Faults.query(key, ["chunks": "6", "ms": "150"])))
            #expect(body.count == 6)
            #expect(try await FaultServer.hits(key).count == 1)
            let metrics = try #require(collector.all.first)
            #expect(collector.all.count == 1)
            #expect(metrics.outcome == .status(200))
            #expect(metrics.bytesReceived == 6)
            let head = try #require(metrics.timeToResponseHead)
            #expect(metrics.duration - head >= .milliseconds(600))
        }

        @Test func retriedCallGivesOneRecordPerServerHit() async throws {
            let key = FaultServer.newKey("metrics-flaky")
            let collector = MetricsCollector()
            let client = try await FaultServer.client(
                behavior: CombinedBehavior([
                    .metrics { collector.record($0) }, .retry(clock: TestClock(), random: { 0 }),
                ]))
            let payload = Data(repeating: UInt8(ascii: "a"), count: 27)
            _ = try await client.send(
                NetworkRequest<Data>(.put, path: "/flaky/2/503", query: Faults.query(key), body: .data(payload)))
            let hits = try await FaultServer.hits(key)
            #expect(hits.count == 3)
            #expect(collector.all.map(\.attempt) == [1, 2, 3])
            #expect(collector.all.map(\.outcome) == [.status(503), .status(503), .status(200)])
            #expect(collector.all.allSatisfy { $0.bytesSent == 27 })
            #expect(collector.all.allSatisfy { $0.bytesReceived > 0 && $0.timeToResponseHead != nil })
        }

        @Test func refusedConnectionIsATransportFailureWithNoHead() async throws {
            let collector = MetricsCollector()
            let client = try loopbackClient(
                URL(string: "http://127.0.0.1:9")!, transport: TestTransport.make(),
                behavior: .metrics { collector.record($0) }, timeout: .seconds(10))
            _ = try await expectNetworkError { try await client.send(NetworkRequest<Void>(path: "/")) }
            // every engine: a refused port (-1004 on Apple's loader).
            #expect(collector.all.map(\.outcome) == [.failed(.transport(.cannotConnect))])
            #expect(collector.all.first?.timeToResponseHead == nil)
            #expect(collector.all.first?.bytesReceived == 0)
        }
    }
}
