import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// Broken or unusual responses (Tests/README.md F12, F13, F23, F25, F26, F28, F29): never a partial success,
    /// always a typed error, and the server saw exactly one request.
    @Suite struct FaultFramingTests {
        /// Routes whose body is cut short or badly framed, and the code each gets on libcurl. Linux reports all four
        /// as URLError -1; the transport reads libcurl's message. Apple's loader names such faults itself: there the
        /// call must still end in a transport error, and the retries follow the code it reported.
        static let brokenBodies: [(String, TransportError.Code)] = [
            ("/close-mid-body", .connectionLost),  // "transfer closed with 900 bytes remaining to read"
            ("/truncated", .connectionLost),  // "transfer closed with 90 bytes remaining to read"
            ("/chunked-no-terminator", .connectionLost),  // "transfer closed with outstanding read data remaining"
            ("/bad-chunked", .badServerResponse),  // "Illegal or missing hexadecimal sequence in chunked-encoding"
        ]

        @Test(arguments: brokenBodies)
        func brokenBodyIsATypedTransportErrorNeverAPartialBody(path: String, code: TransportError.Code) async throws {
            // F12, F13 and close mid-body.
            let key = FaultServer.newKey("broken")
            let client = try await FaultServer.client()
            let error = try await expectNetworkError {
                try await client.send(NetworkRequest<Data>(path: path, query: Faults.query(key), timeout: .seconds(5)))
            }
            #expect(
                TestEngine.onLibcurl(error?.kind == .transport(code), elseAtLeast: Faults.transportCode(error) != nil),
                "got \(String(describing: error))")
            #expect(error?.body == nil)
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test(arguments: brokenBodies)
        func brokenBodyIsRetriedForAGETToTheAttemptBudget(path: String, code: TransportError.Code) async throws {
            // A lost connection or a garbled answer may be a passing fault: an idempotent call tries again.
            let key = FaultServer.newKey("broken-retry")
            let counter = AttemptCounter()
            let client = try await FaultServer.client(
                behavior: CombinedBehavior([.retry(.default, clock: TestClock()), counter]))
            let error = try await expectNetworkError {
                try await client.send(NetworkRequest<Data>(path: path, query: Faults.query(key), timeout: .seconds(5)))
            }
            #expect(
                TestEngine.onLibcurl(error?.kind == .transport(code), elseAtLeast: Faults.transportCode(error) != nil))
            let budget = RetrySettings.defaultMaximumAttempts
            let attempts = TestEngine.attempts(onLibcurl: budget, after: error, budget: budget)
            #expect(try await FaultServer.hits(key).count == attempts)
            #expect(counter.sent == attempts)
        }

        @Test(arguments: brokenBodies)
        func brokenBodyAfterAPOSTIsNeverSentAgain(path: String, code: TransportError.Code) async throws {
            // The server read the POST before the answer broke: it may have acted on it.
            let key = FaultServer.newKey("broken-post")
            let client = try await FaultServer.client(behavior: .retry(.default, clock: TestClock()))
            let error = try await expectNetworkError {
                try await client.send(
                    NetworkRequest<Data>(
                        .post, path: path, query: Faults.query(key), body: .json(["n": 1]), timeout: .seconds(5)))
            }
            #expect(
                TestEngine.onLibcurl(error?.kind == .transport(code), elseAtLeast: Faults.transportCode(error) != nil))
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func garbageStatusLineIsABadServerResponse() async throws {
            // F26: "HTP/1.1 2147483648 Nope". libcurl's code; Apple's loader must at least fail with a transport
            // error and no response.
            let key = FaultServer.newKey("garbage")
            let client = try await FaultServer.client()
            let error = try await expectNetworkError {
                try await client.send(NetworkRequest<Data>(path: "/garbage-status", query: Faults.query(key)))
            }
            #expect(
                TestEngine.onLibcurl(
                    error?.kind == .transport(.badServerResponse), elseAtLeast: Faults.transportCode(error) != nil))
            #expect(error?.response == nil)
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func headerOf200KiBIsATransportError() async throws {
            // F25: libcurl refuses a header line over 100 KiB. Apple's loader may take it: then it must arrive
            // whole, never cut.
            let key = FaultServer.newKey("huge-header")
            let client = try await FaultServer.client()
            let result = try await outcome {
                try await client.response(
                    for: NetworkRequest<Data>(path: "/huge-header", query: Faults.query(key, ["kb": "200"])))
            }
            let whole = result.value?.response.headerFields["X-Huge"]?.count == 200 * 1024
            #expect(
                TestEngine.onLibcurl(
                    Faults.transportCode(result.error) != nil,
                    elseAtLeast: Faults.transportCode(result.error) != nil || whole),
                "got \(String(describing: result.error))")
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func headerOf50KiBIsReadWhole() async throws {
            // Under libcurl's limit; Apple's loader may have a lower one: then a transport error, never a cut header.
            let key = FaultServer.newKey("big-header")
            let client = try await FaultServer.client()
            let result = try await outcome {
                try await client.response(
                    for: NetworkRequest<Data>(path: "/huge-header", query: Faults.query(key, ["kb": "50"])))
            }
            let whole = result.value?.response.headerFields["X-Huge"]?.count == 50 * 1024
            #expect(
                TestEngine.onLibcurl(whole, elseAtLeast: whole || Faults.transportCode(result.error) != nil),
                "got \(String(describing: result.error))")
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func bodyFramedByConnectionCloseIsReadToTheEnd() async throws {
            // F28: no Content-Length, no chunking: the body ends when the connection does.
            let key = FaultServer.newKey("eof-framed")
            let client = try await FaultServer.client()
            let text = try await client.send(NetworkRequest<String>(path: "/no-length-close", query: Faults.query(key)))
            #expect(text == "body framed by connection close")
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test(arguments: ["/204", "/205"])
        func emptyStatusesDecodeAsVoidEmptyResponseAndData(path: String) async throws {
            // F29: no body, no "invalid JSON", no hang.
            let key = FaultServer.newKey("empty")
            let client = try await FaultServer.client()
            try await client.send(NetworkRequest<Void>(path: path, query: Faults.query(key)))
            _ = try await client.send(NetworkRequest<EmptyResponse>(path: path, query: Faults.query(key)))
            let data = try await client.send(NetworkRequest<Data>(path: path, query: Faults.query(key)))
            #expect(data.isEmpty)
            #expect(try await FaultServer.hits(key).count == 3)
        }

        @Test func emptyBodyWhereJSONWasExpectedIsADecodingError() async throws {
            let key = FaultServer.newKey("empty-json")
            let client = try await FaultServer.client()
            let error = try await expectNetworkError {
                try await client.send(NetworkRequest<User>(path: "/204", query: Faults.query(key)))
            }
            #expect(error?.kind == .decoding)
            #expect(error?.statusCode == 204)
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func headGetsTheHeadersAndNoBody() async throws {
            // F29: HEAD of a 100-byte resource, and of an EOF-framed one (which must not wait for a body).
            let key = FaultServer.newKey("head")
            let client = try await FaultServer.client()
            let response = try await client.response(
                for: NetworkRequest<Data>(.head, path: "/bytes/100", query: Faults.query(key)))
            #expect(response.value.isEmpty)
            #expect(response.response.headerFields["Content-Length"] == "100")
            try await client.send(NetworkRequest<Void>(.head, path: "/no-length-close", query: Faults.query(key)))
            let hits = try await FaultServer.hits(key)
            #expect(hits.count == 2)
            #expect(hits.requests.map(\.method) == ["HEAD", "HEAD"])
        }

        @Test func largeJSONDecodes() async throws {
            struct Items: Decodable, Sendable {
                struct Item: Decodable, Sendable {
                    let id: Int
                    let name: String
                }
                let items: [Item]
            }
            let key = FaultServer.newKey("json")
            let client = try await FaultServer.client()
            let value = try await client.send(
                NetworkRequest<Items>(path: "/json", query: Faults.query(key, ["size": "2000000"])))
            #expect(value.items.count > 20_000)
            #expect(value.items.map(\.id) == Array(0..<value.items.count))
            #expect(try await FaultServer.hits(key).count == 1)
        }
    }
}
