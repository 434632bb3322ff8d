import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

extension RealServerTests {
    /// Status lines on the edge of RFC 9112 and a `Content-Length` list in one field (Tests/README.md F26, F27): each
    /// call ends in a typed outcome, the same on both transports where Foundation lets `URLSessionTransport` see it.
    @Suite struct FaultStatusLineTests {
        struct Small: Decodable, Sendable, Equatable {
            let a: Int
        }

        /// Whether `URLSessionTransport` runs on swift-corelibs-foundation (Linux).
        static var foundationNetworking: Bool {
            #if canImport(FoundationNetworking)
                true
            #else
                false
            #endif
        }

        static func client() async throws -> (NetworkClient, AttemptCounter) {
            let counter = AttemptCounter()
            let client = try await FaultServer.client(
                behavior: CombinedBehavior([.retry(.default, clock: TestClock()), counter]))
            return (client, counter)
        }

        static func statusLine(_ kind: String, key: String) -> NetworkRequest<Small> {
            NetworkRequest<Small>(
                path: "/status-line", query: Faults.query(key, ["kind": kind]), timeout: .seconds(5))
        }

        @Test func anHTTPNameInTheWrongCaseIsARefusedResponseSentOnce() async throws {
            // RFC 9112 §2.3: HTTP-name is "HTTP", case-sensitive: `Http/1.1 200 OK` is not a status line.
            let key = FaultServer.newKey("status-case")
            let (client, counter) = try await Self.client()
            // Foundation's parser takes any word for the version and keeps none of it (`_HTTPMessage._Version`,
            // `HTTPURLResponse.init(url:statusCode:httpVersion:headerFields:)`): URLSessionTransport never sees it.
            try await withKnownIssue(
                "Linux's Foundation reads `Http/1.1 200 OK` as a 200 and drops the version (Tests/README.md F26)",
                // Apple's URLSession was not checked here (no Apple platform): there it may go either way.
                isIntermittent: !Self.foundationNetworking
            ) {
                let error = try await expectNetworkError {
                    try await client.send(Self.statusLine("lowercase-name", key: key))
                }
                // every engine: the code is CurlTransport's own head parser's; URLSessionTransport runs under the
                // known issue above.
                #expect(error?.kind == .transport(.other), "got \(String(describing: error))")
                #expect(error?.message.contains("HTTP-name is case-sensitive") == true)
                #expect(error?.description.contains("GET /status-line") == true)
            } when: {
                TestTransport.current == .urlSession
            }
            #expect(try await FaultServer.hits(key).count == 1)
            #expect(counter.sent == 1)
        }

        @Test func aStatusLineWithoutAReasonPhraseIsReadWhereFoundationAllowsIt() async throws {
            // RFC 9112 §4: the reason phrase is optional. libcurl reads `HTTP/1.1 200`; Foundation's parser splits
            // a status line on two spaces (`String.splitRequestLine`), refuses it, and the call says why.
            let key = FaultServer.newKey("status-no-reason")
            let (client, counter) = try await Self.client()
            switch TestTransport.current {
            case .curl:
                let response = try await client.response(for: Self.statusLine("no-reason", key: key))
                #expect(response.response.status.code == 200)
                #expect(response.value == Small(a: 123))
            case .urlSession:
                #if canImport(FoundationNetworking)
                    let error = try await expectNetworkError {
                        try await client.send(Self.statusLine("no-reason", key: key))
                    }
                    // libcurl only (FoundationNetworking, L18): its header callback aborts on Foundation's refusal,
                    // which the transport words.
                    #expect(error?.kind == .transport(.other), "got \(String(describing: error))")
                    #expect(error?.message.contains("a status line without a reason phrase") == true)
                    #expect(error?.description.contains("GET /status-line") == true)
                #else
                    #expect(try await client.send(Self.statusLine("no-reason", key: key)) == Small(a: 123))
                #endif
            }
            #expect(try await FaultServer.hits(key).count == 1)
            #expect(counter.sent == 1)
        }

        @Test func anEmptyReasonPhraseAfterItsSpaceIsReadOnBothTransports() async throws {
            let key = FaultServer.newKey("status-empty-reason")
            let (client, _) = try await Self.client()
            let response = try await client.response(for: Self.statusLine("empty-reason", key: key))
            #expect(response.response.status.code == 200)
            #expect(response.value == Small(a: 123))
        }

        @Test func aContentLengthListWithDifferentValuesIsARefusedResponseNeverABody() async throws {
            // RFC 9112 §6.3: `Content-Length: 10, 4` in one field is as unrecoverable as two fields, on both
            // transports (the shared rule, ContentLengthTests). Apple's loader may refuse the head itself, with a
            // code of its own (retried as that code says): a transport error there, never a body.
            let key = FaultServer.newKey("length-list")
            let (client, counter) = try await Self.client()
            let error = try await expectNetworkError {
                try await client.send(
                    NetworkRequest<Data>(
                        path: "/malformed-header", query: Faults.query(key, ["kind": "length-list"]),
                        timeout: .seconds(5)))
            }
            #expect(
                TestEngine.onLibcurl(
                    error?.kind == .transport(.other)
                        && error?.message.contains("conflicting Content-Length values (10, 4)") == true,
                    elseAtLeast: Faults.transportCode(error) != nil),
                "got \(String(describing: error))")
            #expect(error?.body == nil)
            let attempts = TestEngine.attempts(onLibcurl: 1, after: error, budget: RetrySettings.defaultMaximumAttempts)
            #expect(try await FaultServer.hits(key).count == attempts)
            #expect(counter.sent == attempts)
        }

        @Test func aContentLengthListOfOneValueIsThatLength() async throws {
            // RFC 9110 §8.6: `10, 10` may be read as 10.
            let key = FaultServer.newKey("length-list-same")
            let (client, _) = try await Self.client()
            let body = try await client.send(
                NetworkRequest<Data>(
                    path: "/malformed-header", query: Faults.query(key, ["kind": "length-list-same"]),
                    timeout: .seconds(5)))
            #expect(String(decoding: body, as: UTF8.self) == #"{"a": 123}"#)
            #expect(try await FaultServer.hits(key).count == 1)
        }
    }
}
