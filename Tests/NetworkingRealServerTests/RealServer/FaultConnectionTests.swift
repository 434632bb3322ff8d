import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// Connection faults on loopback (Tests/README.md F1, F4-F9): refused, closed before or after reading, stalled,
    /// slow. Each test checks the client's outcome and how many requests the server received.
    @Suite struct FaultConnectionTests {
        /// A client whose retry waits on a virtual clock and whose attempts are counted inside the retry.
        private func retryingClient(attempts: Int = 3, counter: AttemptCounter = AttemptCounter()) async throws
            -> NetworkClient
        {
            var policy = RetrySettings(maximumAttempts: attempts)
            policy.retryableTransportErrors.insert(.timedOut)
            return try await FaultServer.client(
                transport: TestTransport.make(),
                behavior: CombinedBehavior([.retry(policy, clock: TestClock()), counter]))
        }

        @Test(arguments: [HTTPMethod.get, .post])
        func refusedPortIsRetriedForAnyMethodBecauseNothingWasSent(method: HTTPMethod) async throws {
            // F1: nothing reached a server, so even a POST is safe to send again. No server, so the attempts are counted.
            let counter = AttemptCounter()
            let client = NetworkClient(
                baseURL: URL(string: "http://127.0.0.1:1")!, transport: TestTransport.make(),
                behavior: CombinedBehavior([.retry(RetrySettings(maximumAttempts: 3), clock: TestClock()), counter]))
            let body: RequestBody? = method == .post ? .json(["n": 1]) : nil
            let error = try await expectNetworkError {
                try await client.send(NetworkRequest<Data>(method, path: "/", body: body))
            }
            #expect(error?.kind == .transport(.cannotConnect))  // every engine: a refused port (-1004 on Apple's)
            #expect(counter.sent == 3)
        }

        @Test(arguments: [HTTPMethod.get, .post])
        func closeBeforeReadingIsATransportErrorAfterOneHit(method: HTTPMethod) async throws {
            // F8: the server accepts and closes at once without reading the request.
            let key = FaultServer.newKey("close-at-start")
            let client = try await FaultServer.client(transport: TestTransport.make())
            let body: RequestBody? = method == .post ? .json(["n": 1]) : nil
            let error = try await expectNetworkError {
                try await client.send(
                    NetworkRequest<Data>(
                        method, path: "/stall-before-read", query: Faults.query(key, ["ms": "0"]), body: body))
            }
            #expect(Faults.transportCode(error) != nil, "got \(String(describing: error))")
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test(arguments: [HTTPMethod.get, .post])
        func closeAfterReadingIsABadServerResponseAfterOneHit(method: HTTPMethod) async throws {
            // F9: the server reads the request on a fresh connection and closes without a byte. libcurl's "Empty
            // reply from server" is a bad response; Apple's loader may call it a lost connection: at least a transport
            // error there.
            let key = FaultServer.newKey("close-no-response")
            let client = try await FaultServer.client(transport: TestTransport.make())
            let body: RequestBody? = method == .post ? .json(["n": 1]) : nil
            let error = try await expectNetworkError {
                try await client.send(
                    NetworkRequest<Data>(method, path: "/close-before-response", query: Faults.query(key), body: body))
            }
            #expect(
                TestEngine.onLibcurl(
                    error?.kind == .transport(.badServerResponse), elseAtLeast: Faults.transportCode(error) != nil))
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func closeAfterReadingIsRetriedForGETAsThePolicySays() async throws {
            let key = FaultServer.newKey("close-get-retry")
            let counter = AttemptCounter()
            let client = try await retryingClient(attempts: 3, counter: counter)
            let error = try await expectNetworkError {
                try await client.send(NetworkRequest<Data>(path: "/close-before-response", query: Faults.query(key)))
            }
            // libcurl's code is transient: the budget. On Apple's loader the retries follow the code it reported.
            #expect(
                TestEngine.onLibcurl(
                    error?.kind == .transport(.badServerResponse), elseAtLeast: Faults.transportCode(error) != nil))
            let attempts = TestEngine.attempts(onLibcurl: 3, after: error, budget: 3)
            #expect(try await FaultServer.hits(key).count == attempts)
            #expect(counter.sent == attempts)
        }

        @Test func closeAfterReadingNeverSendsAPOSTTwice() async throws {
            let key = FaultServer.newKey("close-post-retry")
            let client = try await retryingClient(attempts: 3)
            let error = try await expectNetworkError {
                try await client.send(
                    NetworkRequest<Data>(
                        .post, path: "/close-before-response", query: Faults.query(key), body: .json(["pay": 10])))
            }
            #expect(
                TestEngine.onLibcurl(
                    error?.kind == .transport(.badServerResponse), elseAtLeast: Faults.transportCode(error) != nil))
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func closeDuringALargeUploadFailsAndThePOSTIsNotSentAgain() async throws {
            // F14: the server closes without reading while 8 MiB are still being uploaded.
            let key = FaultServer.newKey("close-upload")
            let client = try await retryingClient(attempts: 3)
            let body = Data(repeating: UInt8(ascii: "u"), count: 8 * 1024 * 1024)
            let error = try await expectNetworkError {
                try await client.send(
                    NetworkRequest<Data>(
                        .post, path: "/stall-before-read", query: Faults.query(key, ["ms": "0"]),
                        body: .data(body, contentType: "application/octet-stream"), timeout: .seconds(5)))
            }
            #expect(Faults.transportCode(error) != nil, "got \(String(describing: error))")
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func stallBeforeReadingEndsAtTheAttemptLimit() async throws {
            // F4: accepted, never read.
            let key = FaultServer.newKey("stall-unread")
            let client = try await FaultServer.client(transport: TestTransport.make())
            let start = ContinuousClock.now
            let error = try await expectNetworkError {
                try await client.send(
                    NetworkRequest<Data>(
                        path: "/stall-before-read", query: Faults.query(key, ["ms": "5000"]),
                        timeout: .milliseconds(400)))
            }
            #expect(error?.kind == .timedOut(.attempt))
            #expect(ContinuousClock.now - start < .milliseconds(2500))
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func stallAfterReadingEndsAtTheAttemptLimit() async throws {
            // F5: read, never answered.
            let key = FaultServer.newKey("stall-read")
            let client = try await FaultServer.client(transport: TestTransport.make())
            let start = ContinuousClock.now
            let error = try await expectNetworkError {
                try await client.send(
                    NetworkRequest<Data>(
                        path: "/stall", query: Faults.query(key, ["ms": "5000"]), timeout: .milliseconds(400)))
            }
            #expect(error?.kind == .timedOut(.attempt))
            #expect(ContinuousClock.now - start < .milliseconds(2500))
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func stalledGETIsRetriedWhenThePolicyRetriesTimeouts() async throws {
            let key = FaultServer.newKey("stall-get-retry")
            let client = try await retryingClient(attempts: 2)
            let error = try await expectNetworkError {
                try await client.send(
                    NetworkRequest<Data>(
                        path: "/stall", query: Faults.query(key, ["ms": "3000"]), timeout: .milliseconds(300)))
            }
            #expect(error?.kind == .timedOut(.attempt))
            #expect(try await FaultServer.hits(key).count == 2)
        }

        @Test func stalledPOSTIsNeverRetriedEvenWhenThePolicyRetriesTimeouts() async throws {
            // The server may have acted on it: the outcome is unknown, so it is not sent again.
            let key = FaultServer.newKey("stall-post-retry")
            let client = try await retryingClient(attempts: 3)
            let error = try await expectNetworkError {
                try await client.send(
                    NetworkRequest<Data>(
                        .post, path: "/stall", query: Faults.query(key, ["ms": "3000"]), body: .json(["n": 1]),
                        timeout: .milliseconds(300)))
            }
            #expect(error?.kind == .timedOut(.attempt))
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func slowHeadersWithinTheLimitSucceed() async throws {
            // F6: the status line, a pause, then the rest.
            struct Slow: Decodable, Sendable { let slow_headers: Bool }
            let key = FaultServer.newKey("slow-headers")
            let client = try await FaultServer.client(transport: TestTransport.make())
            let value = try await client.send(
                NetworkRequest<Slow>(
                    path: "/slow-headers", query: Faults.query(key, ["ms": "300"]), timeout: .seconds(2)))
            #expect(value.slow_headers)
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func subSecondLimitAboveTheServerDelaySucceeds() async throws {
            // F6 and L4: raw libcurl turns a 0.9 s timeout into 1 ms; the client must not. (The margin is wide so a
            // loaded machine running the whole suite still answers in time.)
            let key = FaultServer.newKey("sub-second")
            let client = try await FaultServer.client(transport: TestTransport.make())
            let data = try await client.send(
                NetworkRequest<Data>(path: "/delay-ms/100", query: Faults.query(key), timeout: .milliseconds(900)))
            #expect(!data.isEmpty)
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func slowDripIsCutByTheAttemptLimitAsATotal() async throws {
            // F7: a byte every 150 ms keeps libcurl's idle timer happy forever; the attempt limit is a total.
            let key = FaultServer.newKey("drip-slow")
            let client = try await FaultServer.client(transport: TestTransport.make())
            let start = ContinuousClock.now
            let error = try await expectNetworkError {
                try await client.send(
                    NetworkRequest<Data>(
                        path: "/drip", query: Faults.query(key, ["chunks": "20", "ms": "150"]),
                        timeout: .milliseconds(700))
                )
            }
            #expect(error?.kind == .timedOut(.attempt))
            #expect(ContinuousClock.now - start < .milliseconds(2500))
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func dripWithinTheLimitArrivesWhole() async throws {
            let key = FaultServer.newKey("drip-ok")
            let client = try await FaultServer.client(transport: TestTransport.make())
            let data = try await client.send(
                NetworkRequest<Data>(
                    path: "/drip", query: Faults.query(key, ["chunks": "5", "ms": "40"]), timeout: .seconds(3)))
            #expect(data == Data("xxxxx".utf8))
            #expect(try await FaultServer.hits(key).count == 1)
        }
    }
}
