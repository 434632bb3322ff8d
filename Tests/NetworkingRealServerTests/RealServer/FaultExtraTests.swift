import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// Decompression bombs, 1xx interim responses, malformed headers and an untrusted TLS certificate
    /// (Tests/README.md F24, F36, F27, F32): each ends in a typed outcome, and the server saw exactly what it should.
    @Suite struct FaultExtraTests {
        // MARK: F24: decompression bomb

        /// The body limits tried against `/gzip-bomb`: 1 MiB and the default 32 MiB, both far above the 64 KB the
        /// bomb takes on the wire and far below the 64 MiB it inflates to.
        static let bodyLimits = [1 << 20, NetworkClient.Configuration(baseURL: nil).maximumResponseBodySize]

        @Test(arguments: bodyLimits)
        func gzipBombIsCutAtTheLimitCountedInInflatedBytes(limit: Int) async throws {
            // libcurl asks for gzip and inflates it; the limit applies to what it inflates, not to the 64 KB sent.
            let key = FaultServer.newKey("gzip-bomb")
            let counter = AttemptCounter()
            let client = try await FaultServer.client(
                behavior: CombinedBehavior([.retry(.default, clock: TestClock()), counter]),
                configure: { $0.maximumResponseBodySize = limit })
            let start = ContinuousClock.now
            let error = try await expectNetworkError {
                try await client.send(
                    NetworkRequest<Data>(path: "/gzip-bomb", query: Faults.query(key), timeout: .seconds(20)))
            }
            let elapsed = ContinuousClock.now - start
            #expect(error?.kind == .transport(.responseTooLarge), "got \(String(describing: error))")
            #expect(error?.transportError?.message.contains("limit of \(limit) bytes") == true)
            #expect(error?.body == nil)
            // Inflating 32 MiB of zeros takes about 0.1 s here; 10 s only catches a transport reading all 64 MiB
            // slowly or hanging.
            #expect(elapsed < .seconds(10), "took \(elapsed)")
            let hits = try await FaultServer.hits(key)
            #expect(hits.count == 1)  // responseTooLarge is never retried
            #expect(counter.sent == 1)
            #expect(hits.requests.first?.headers["accept-encoding"]?.contains("gzip") == true)
        }

        // MARK: F36: 1xx before the final response

        struct Final: Decodable, Sendable, Equatable {
            let final: Bool
            let interim: Int
        }

        @Test(arguments: [(103, 1), (100, 1), (103, 3)])
        func interimResponsesAreNeverTheFinalOne(code: Int, count: Int) async throws {
            // "HTTP/1.1 103 Early Hints" (with a Link header) or "100 Continue", `count` times, then a 200.
            let key = FaultServer.newKey("interim")
            let client = try await FaultServer.client()
            let response = try await client.response(
                for: NetworkRequest<Final>(
                    path: "/informational", query: Faults.query(key, ["code": "\(code)", "count": "\(count)"]),
                    timeout: .seconds(5)))
            #expect(response.response.status.code == 200)
            #expect(response.value == Final(final: true, interim: code))
            // The interim response's headers do not leak into the final one.
            #expect(response.response.headerFields["Link"] == nil)
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func unaskedForContinueBeforeAPOSTAnswerIsSkipped() async throws {
            // The server reads the whole POST, then answers "100 Continue" and the 200: the body went once, whole.
            let key = FaultServer.newKey("interim-post")
            let client = try await FaultServer.client()
            let value = try await client.send(
                NetworkRequest<Final>(
                    .post, path: "/informational", query: Faults.query(key, ["code": "100"]),
                    body: .data(Data("payload".utf8), contentType: "text/plain"), timeout: .seconds(5)))
            #expect(value == Final(final: true, interim: 100))
            let hits = try await FaultServer.hits(key)
            #expect(hits.count == 1)
            #expect(hits.requests.map(\.body) == ["payload"])
        }

        // MARK: F27: malformed headers

        @Test(arguments: [
            ("no-colon", "Header without colon"),  // libcurl rejects the line itself
            ("empty-name", "Failed writing header"),  // libcurl passes ": value" on; Foundation's parser refuses it
        ])
        func malformedHeaderLineIsATransportErrorSentOnce(kind: String, message: String) async throws {
            let key = FaultServer.newKey("malformed")
            let counter = AttemptCounter()
            let client = try await FaultServer.client(
                behavior: CombinedBehavior([.retry(.default, clock: TestClock()), counter]))
            let result = try await outcome {
                try await client.send(
                    NetworkRequest<Data>(
                        path: "/malformed-header", query: Faults.query(key, ["kind": kind]), timeout: .seconds(5)))
            }
            let error = result.error
            // Linux's URLSession reports both as URLError -1, which the default policy does not retry (F13, L8); the
            // libcurl transport reads libcurl's words the same way. Apple's loader may refuse the line with a code
            // of its own (retried as that code says) or drop it: then the 10-byte body arrives whole.
            #expect(
                TestEngine.onLibcurl(
                    error?.kind == .transport(.other),
                    elseAtLeast: Faults.transportCode(error) != nil || result.value == Data(#"{"a": 123}"#.utf8)),
                "got \(String(describing: error))")
            #expect(
                TestEngine.onLibcurl(
                    error?.transportError?.urlErrorCode == (TestTransport.current == .curl ? nil : -1),
                    elseAtLeast: true))
            #expect(
                TestEngine.onLibcurl(error?.transportError?.message.contains(message) == true, elseAtLeast: true),
                "got \(String(describing: error))")
            #expect(error?.response == nil)
            let attempts = TestEngine.attempts(onLibcurl: 1, after: error, budget: RetrySettings.defaultMaximumAttempts)
            #expect(try await FaultServer.hits(key).count == attempts)
            #expect(counter.sent == attempts)
        }

        @Test(arguments: ["two-lengths", "two-lengths-last-shorter"])
        func conflictingContentLengthsAreATransportErrorNeverATruncatedBody(kind: String) async throws {
            // "Content-Length: 5" and "Content-Length: 10" in one response: RFC 9112 §6.3 makes the framing
            // unrecoverable. libcurl frames by the last value, so without the check a 10-then-5 response came back
            // as a successful 200 with its body cut to 5 bytes. Both transports check the lengths they are handed;
            // Apple's loader may refuse the head first, with a code of its own (retried as that code says), or
            // frame the body by one value: then only the whole 10-byte body is right.
            let key = FaultServer.newKey(kind)
            let client = try await FaultServer.client(behavior: .retry(clock: TestClock()))
            let result = try await outcome {
                try await client.send(
                    NetworkRequest<Data>(
                        path: "/malformed-header", query: Faults.query(key, ["kind": kind]), timeout: .seconds(5)))
            }
            let error = result.error
            #expect(
                TestEngine.onLibcurl(
                    error?.kind == .transport(.other) && error?.message.contains("conflicting Content-Length") == true,
                    elseAtLeast: Faults.transportCode(error) != nil || result.value == Data(#"{"a": 123}"#.utf8)),
                "got \(String(describing: result))")
            let attempts = TestEngine.attempts(onLibcurl: 1, after: error, budget: RetrySettings.defaultMaximumAttempts)
            #expect(try await FaultServer.hits(key).count == attempts)
        }

        // MARK: F32: untrusted TLS certificate

        @Test func plainHTTPServerOnAnHTTPSURLIsAFailedHandshakeNeverRetried() async throws {
            // The fault server's plain port answers a ClientHello with garbage: the handshake itself fails.
            let key = FaultServer.newKey("tls-handshake")
            let port = try #require(try await FaultServer.url().port)
            let counter = AttemptCounter()
            let client = try loopbackClient(
                URL(string: "https://127.0.0.1:\(port)")!, transport: TestTransport.make(),
                behavior: CombinedBehavior([.retry(.default, clock: TestClock()), counter]), timeout: .seconds(10))
            let error = try await expectNetworkError {
                try await client.send(NetworkRequest<Data>(path: "/ok", query: Faults.query(key)))
            }
            // every engine: libcurl's "wrong version number" (L8), -1200 on Apple's loader.
            #expect(error?.kind == .transport(.secureConnectionFailed), "got \(String(describing: error))")
            #expect(error?.transportError?.secureConnectionFailure == .handshake)
            #expect(counter.sent == 1)
            #expect(try await FaultServer.hits(key).count == 0)
        }

        @Test func selfSignedCertificateFailsOnceAndIsNeverRetried() async throws {
            // The listener counts connections, not requests: a failed handshake never gets to one. RealServerTests
            // run one at a time and nothing else uses the TLS port, so the difference is this test's alone.
            let before = try await FaultServer.tlsStats()
            let key = FaultServer.newKey("tls")
            let counter = AttemptCounter()
            let client = try loopbackClient(
                URL(string: "https://127.0.0.1:\(before.port)")!, transport: TestTransport.make(),
                behavior: CombinedBehavior([.retry(.default, clock: TestClock()), counter]), timeout: .seconds(10))
            let error = try await expectNetworkError {
                try await client.send(NetworkRequest<Data>(path: "/ok", query: Faults.query(key)))
            }
            // Linux reports URLError -1 with libcurl's "SSL certificate problem: self-signed certificate" (L8);
            // Apple platforms report -1202 (or the transport's own trust evaluation refuses it). On every engine a
            // refused certificate.
            #expect(error?.kind == .transport(.secureConnectionFailed), "got \(String(describing: error))")
            #expect(error?.transportError?.secureConnectionFailure == .certificate)
            #expect(error?.response == nil)
            #expect(counter.sent == 1)
            // The server thread notes the failed handshake just after the client gives up: wait for it (bounded).
            var after = try await FaultServer.tlsStats()
            let deadline = ContinuousClock.now + .seconds(5)
            while after.handshakes.failed == before.handshakes.failed && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
                after = try await FaultServer.tlsStats()
            }
            #expect(after.connections - before.connections == 1)
            #expect(after.handshakes.failed - before.handshakes.failed == 1)
            #expect(after.handshakes.ok == before.handshakes.ok)
            #expect(try await FaultServer.hits(key).count == 0)
        }
    }
}
