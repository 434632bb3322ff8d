import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// File bodies over the real transport against the fault server: every attempt and every 307/308 hop sends the
    /// whole file again, read from disk; the server's hit log and digests prove what went over the wire.
    @Suite struct FaultUploadTests {
        struct Digest: Decodable, Sendable {
            let bytes: Int
            let adler32: UInt32
            let content_length: String?
            let content_type: String?
        }

        /// Text bytes (the hit log records bodies as text), distinct at every offset.
        static func contents(_ count: Int) -> Data {
            Data((0..<count).map { UInt8(ascii: "a") + UInt8($0 % 26) })
        }

        struct Echo: Decodable, Sendable {
            let method: String
            let path: String
        }

        /// zlib's Adler-32 of `data`, as the server computes it.
        static func adler32(_ data: Data) -> UInt32 {
            var a: UInt32 = 1
            var b: UInt32 = 0
            for byte in data {
                a = (a + UInt32(byte)) % 65_521
                b = (b + a) % 65_521
            }
            return b << 16 | a
        }

        @Test func aFileIsSentWholeWithItsExactLength() async throws {
            let contents = Self.contents(3 * 1024 * 1024 + 17)
            let file = try TestFiles.temporaryFile(contents)
            defer { try? FileManager.default.removeItem(at: file) }
            let digest = try await FaultServer.client().send(
                NetworkRequest<Digest>(.post, path: "/upload-digest", body: .file(file, contentType: "text/plain")))
            #expect(digest.bytes == contents.count)
            #expect(digest.content_length == "\(contents.count)")
            #expect(digest.content_type == "text/plain")
            #expect(digest.adler32 == Self.adler32(contents))
        }

        @Test func aRetriedPUTSendsTheWholeFileOnEveryAttempt() async throws {
            let key = FaultServer.newKey("upload-retry")
            let contents = Self.contents(200_000)
            let file = try TestFiles.temporaryFile(contents)
            defer { try? FileManager.default.removeItem(at: file) }
            let clock = TestClock()
            let client = try await FaultServer.client(behavior: .retry(.default, clock: clock))
            let answer = try await client.send(
                NetworkRequest<FaultRetryTests.Flaky>(
                    .put, path: "/flaky/2/503", query: Faults.query(key), body: .file(file)))
            #expect(answer.attempt == 3)
            let hits = try await FaultServer.hits(key)
            #expect(hits.count == 3)
            #expect(hits.requests.map(\.body) == Array(repeating: String(decoding: contents, as: UTF8.self), count: 3))
            #expect(hits.requests.map { $0.headers["content-length"] } == Array(repeating: "200000", count: 3))
        }

        @Test(arguments: [307, 308])
        func aRedirectThatKeepsTheMethodSendsTheFileAgainToTheNewTarget(status: Int) async throws {
            let key = FaultServer.newKey("upload-redirect")
            let contents = Self.contents(150_000)
            let file = try TestFiles.temporaryFile(contents)
            defer { try? FileManager.default.removeItem(at: file) }
            let target = "/echo?key=\(key)"
            let echo = try await FaultServer.client().send(
                NetworkRequest<Echo>(
                    .post, path: "/redirect-to", query: Faults.query(key, ["status": "\(status)", "url": target]),
                    body: .file(file)))
            #expect(echo.path == "/echo")
            let hits = try await FaultServer.hits(key)
            #expect(hits.requests.map(\.path) == ["/redirect-to", "/echo"])
            #expect(hits.requests.map(\.method) == ["POST", "POST"])
            #expect(hits.requests.allSatisfy { $0.body == String(decoding: contents, as: UTF8.self) })
        }

        @Test func a303TurnsTheUploadIntoAGETWithoutTheFile() async throws {
            let key = FaultServer.newKey("upload-303")
            let file = try TestFiles.temporaryFile(Self.contents(10_000))
            defer { try? FileManager.default.removeItem(at: file) }
            _ = try await FaultServer.client().send(
                NetworkRequest<Echo>(
                    .post, path: "/redirect-to",
                    query: Faults.query(key, ["status": "303", "url": "/echo?key=\(key)"]),
                    body: .file(file)))
            let hits = try await FaultServer.hits(key)
            #expect(hits.requests.map(\.method) == ["POST", "GET"])
            #expect(hits.requests.last?.body == "")
            #expect(hits.requests.last?.headers["content-length"] == nil)
        }

        /// Records, as the transport reports them, the byte counts sent (synchronously: the progress stream keeps
        /// only the newest value, so a reader the scheduler runs late may see only the end).
        final class SentCounts: TransferObserver, AttemptObserver {
            let counts = LockedBox<[Int64]>([])
            func attemptStarted(_ request: HTTPRequest) -> (any AttemptObserver)? { self }
            func bytesSent(_ total: Int64, of expected: Int64?) { counts.withLock { $0.append(total) } }
        }

        struct ObservingSends: RequestBehavior {
            let observer: SentCounts
            var placement: BehaviorPlacement { .observation }
            func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws
                -> (HTTPResponse, HTTPBody)
            {
                try await TransferObservation.observe(with: observer) { try await next(request) }
            }
        }

        @Test func uploadProgressIsMonotonicAndEndsAtTheFileSize() async throws {
            let contents = Self.contents(8 * 1024 * 1024)
            let file = try TestFiles.temporaryFile(contents)
            defer { try? FileManager.default.removeItem(at: file) }
            let sent = SentCounts()
            let call = try await FaultServer.client().upload(
                NetworkRequest<Digest>(.post, path: "/upload-digest", body: .file(file)),
                behavior: ObservingSends(observer: sent))
            let collector = Task {
                var seen: [TransferProgress] = []
                for await progress in call.progress { seen.append(progress) }
                return seen
            }
            let digest = try await call.value
            let seen = await collector.value
            #expect(digest.bytes == contents.count)
            #expect(
                seen.last
                    == TransferProgress(completedBytes: Int64(contents.count), expectedBytes: Int64(contents.count)))
            #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.completedBytes <= $1.completedBytes })
            let counts = sent.counts.current
            #expect(counts.count >= 2, "the transport reports bytes while sending, not only the end: \(counts)")
            #expect(zip(counts, counts.dropFirst()).allSatisfy { $0 <= $1 })
            #expect(counts.last == Int64(contents.count))
        }
    }
}
