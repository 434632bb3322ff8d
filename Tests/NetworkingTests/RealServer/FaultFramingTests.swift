import Foundation
import Networking
import NetworkingTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// Broken or unusual responses (reliability.md F12, F13, F23, F25, F26, F28, F29): never a partial success,
    /// always a typed error, and the server saw exactly one request.
    @Suite struct FaultFramingTests {
        /// Routes whose body is cut short or badly framed.
        static let brokenBodies = ["/close-mid-body", "/truncated", "/bad-chunked", "/chunked-no-terminator"]

        @Test(arguments: brokenBodies)
        func brokenBodyIsATransportErrorNeverAPartialBody(path: String) async throws {
            // F12, F13 and close mid-body.
            let key = FaultServer.newKey("broken")
            let client = try await FaultServer.client()
            let error = await expectNetworkError {
                try await client.send(NetworkRequest<Data>(path: path, query: Faults.query(key), timeout: .seconds(5)))
            }
            #expect(Faults.transportCode(error) != nil, "got \(String(describing: error))")
            #expect(error?.body == nil)
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test(arguments: brokenBodies)
        func brokenBodyIsRetriedOnlyAsThePolicySays(path: String) async throws {
            // Linux reports these as URLError -1 (unknown), which the default policy does not retry: it cannot be told
            // apart from a TLS failure. So even a GET is sent once.
            let key = FaultServer.newKey("broken-retry")
            let counter = AttemptCounter()
            let client = try await FaultServer.client(
                behavior: CombinedBehavior([.retry(.default, clock: TestClock()), counter]))
            let error = await expectNetworkError {
                try await client.send(NetworkRequest<Data>(path: path, query: Faults.query(key), timeout: .seconds(5)))
            }
            let code = try #require(Faults.transportCode(error))
            let expected = RetryPolicy.defaultRetryableTransportErrors.contains(code) ? 3 : 1
            #expect(try await FaultServer.hits(key).count == expected, "code \(code)")
            #expect(counter.sent == expected)
        }

        @Test func garbageStatusLineIsABadServerResponse() async throws {
            // F26: "HTP/1.1 2147483648 Nope".
            let key = FaultServer.newKey("garbage")
            let client = try await FaultServer.client()
            let error = await expectNetworkError {
                try await client.send(NetworkRequest<Data>(path: "/garbage-status", query: Faults.query(key)))
            }
            #expect(error?.kind == .transport(.badServerResponse))
            #expect(error?.response == nil)
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func headerOf200KiBIsATransportError() async throws {
            // F25: libcurl refuses a header line over 100 KiB.
            let key = FaultServer.newKey("huge-header")
            let client = try await FaultServer.client()
            let error = await expectNetworkError {
                try await client.send(
                    NetworkRequest<Data>(path: "/huge-header", query: Faults.query(key, ["kb": "200"])))
            }
            #expect(Faults.transportCode(error) != nil, "got \(String(describing: error))")
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func headerOf50KiBIsReadWhole() async throws {
            let key = FaultServer.newKey("big-header")
            let client = try await FaultServer.client()
            let response = try await client.response(
                for: NetworkRequest<Data>(path: "/huge-header", query: Faults.query(key, ["kb": "50"])))
            #expect(response.httpResponse.value(forHTTPHeaderField: "X-Huge")?.count == 50 * 1024)
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
            let error = await expectNetworkError {
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
            #expect(response.httpResponse.value(forHTTPHeaderField: "Content-Length") == "100")
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
