import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// Stream bodies over the real transport against the fault server, which counts hits and bytes.
    @Suite struct StreamUploadTests {
        typealias Digest = FaultUploadTests.Digest

        /// `count` bytes of text in chunks of `size`.
        static func chunks(_ count: Int, size: Int = 64 * 1024) -> HTTPBody.Chunks {
            let contents = FaultUploadTests.contents(count)
            return AsyncThrowingStream { continuation in
                for start in stride(from: 0, to: count, by: size) {
                    continuation.yield(contents.subdata(in: start..<min(start + size, count)))
                }
                continuation.finish()
            }
        }

        @Test(arguments: [nil, Int64(1_000_003)])
        func aStreamArrivesWholeWithAnExactLength(announced: Int64?) async throws {
            let stream = HTTPBody(length: announced) { Self.chunks(1_000_003) }
            let digest = try await FaultServer.client().send(
                NetworkRequest<Digest>(.post, path: "/upload-digest", body: .stream(stream)))
            #expect(digest.bytes == 1_000_003)
            // The URLSession transport collects a stream in a file first, so it always knows the length; the libcurl
            // transport sends it as produced, chunked when no length is announced.
            let collected = TestTransport.current == .urlSession || announced != nil
            #expect(digest.content_length == (collected ? "1000003" : nil))
            #expect(digest.adler32 == FaultUploadTests.adler32(FaultUploadTests.contents(1_000_003)))
        }

        /// A body that produces another count than it announced, in one chunk or several, with `PUT` (which retry
        /// would send again) and `POST`: the call fails naming both counts, and no server receives a complete
        /// request. The URLSession transport collects the stream before sending, so nothing reaches the server; the
        /// libcurl transport sends a stream as it is produced, keeping back the announced last byte until the
        /// producer has ended with the announced count, and closes the connection otherwise: the server may see
        /// the head and part of the body, never all of it.
        @Test(
            arguments: [
                (Int64(100), [8]), (100, [40, 40]), (5000, [4000]), (100, [100, 1]), (100, [60, 60]), (100, [101]),
                (100, [100, 0, 5]),
            ] as [(Int64, [Int])])
        func aStreamOfAnotherLengthThanAnnouncedFailsAndNoCompleteRequestArrives(
            announced: Int64, chunkSizes: [Int]
        ) async throws {
            let produced = chunkSizes.reduce(0, +)
            for method in [HTTPMethod.put, .post] {
                let key = FaultServer.newKey("stream-length")
                let stream = HTTPBody(length: announced) {
                    AsyncThrowingStream { continuation in
                        for size in chunkSizes { continuation.yield(Data(repeating: 0x61, count: size)) }
                        continuation.finish()
                    }
                }
                let client = try await FaultServer.client(behavior: .retry(.default, clock: TestClock()))
                let error = try await expectNetworkError {
                    try await client.send(
                        NetworkRequest<Digest>(
                            method, path: "/upload-digest", query: Faults.query(key), body: .stream(stream)))
                }
                // every engine: the transport's own count of the stream's bytes, not the engine's.
                #expect(error?.kind == .transport(.other), "got \(String(describing: error))")
                let counts =
                    produced < announced
                    ? "produced \(produced) bytes, not the announced \(announced)"
                    : "produced more than the announced \(announced) bytes"
                #expect(error?.message.contains(counts) == true, "got \(String(describing: error))")
                let hits = try await FaultServer.hits(key)
                #expect(hits.requests.allSatisfy { $0.complete == false }, "\(hits.requests.map(\.body.count))")
                #expect(hits.requests.allSatisfy { $0.body.utf8.count < announced })
                if TestTransport.current == .urlSession { #expect(hits.count == 0) }
            }
        }

        @Test func aStreamWhoseProducerStallsEndsInTheAttemptTimeoutAndNoWholeRequestArrives() async throws {
            // The time limit stops the transfer (or, on URLSessionTransport, the collecting of the stream) as a
            // cancellation would: the producer never finishes, the call ends at its 1 s limit.
            let key = FaultServer.newKey("stream-stall")
            let stalling = HTTPBody(length: 100_000, once: AsyncThrowingStream { $0.yield(Data(count: 1000)) })
            let started = ContinuousClock.now
            let error = try await expectNetworkError {
                try await FaultServer.client().send(
                    NetworkRequest<Digest>(
                        .post, path: "/upload-digest", query: Faults.query(key), body: .stream(stalling),
                        timeout: .seconds(1)))
            }
            #expect(error?.kind == .timedOut(.attempt))
            #expect(ContinuousClock.now - started < .seconds(10))
            let hits = try await FaultServer.hits(key)
            #expect(hits.requests.allSatisfy { $0.body.utf8.count < 100_000 })
            if TestTransport.current == .urlSession { #expect(hits.count == 0) }
        }

        @Test func aRestartableStreamIsProducedAgainForEveryAttempt() async throws {
            let key = FaultServer.newKey("stream-retry")
            let made = LockedBox(0)
            let stream = HTTPBody {
                made.withLock { $0 += 1 }
                return Self.chunks(100_000)
            }
            let client = try await FaultServer.client(behavior: .retry(.default, clock: TestClock()))
            let answer = try await client.send(
                NetworkRequest<FaultRetryTests.Flaky>(
                    .put, path: "/flaky/1/503", query: Faults.query(key), body: .stream(stream)))
            #expect(answer.attempt == 2)
            #expect(made.current == 2)
            let hits = try await FaultServer.hits(key)
            let text = String(decoding: FaultUploadTests.contents(100_000), as: UTF8.self)
            #expect(hits.requests.map(\.body) == [text, text])
        }

        @Test func aOneTimeStreamIsNotResentByA307AndCannotBeSentTwice() async throws {
            let key = FaultServer.newKey("stream-307")
            let stream = HTTPBody(once: Self.chunks(50_000))
            let request = NetworkRequest<FaultUploadTests.Echo>(
                .post, path: "/redirect-to", query: Faults.query(key, ["status": "307", "url": "/echo?key=\(key)"]),
                body: .stream(stream))
            let client = try await FaultServer.client()
            let refused = try await expectNetworkError { try await client.send(request) }
            #expect(refused?.kind == .transport(.redirectRefused))
            #expect(refused?.message.contains("one-time body") == true)
            let hits = try await FaultServer.hits(key)
            let text = String(decoding: FaultUploadTests.contents(50_000), as: UTF8.self)
            #expect(hits.requests.map(\.path) == ["/redirect-to"])
            #expect(hits.requests.map(\.body) == [text])
            let again = try await expectNetworkError { try await client.send(request) }
            #expect(again?.kind == .invalidRequest)
            #expect(try await FaultServer.hits(key).count == 1)
        }
    }
}
