import Foundation
import Networking
import NetworkingCurl
import NetworkingTesting
import Testing
import NetworkingTestSupport

extension RealServerTests {
    /// A `Content-Length` holding a list (Tests/README.md F27) on `CurlTransport`: different values are an invalid
    /// length, which RFC 9112 §6.3 makes unrecoverable, refused once and never retried; the same value repeated is
    /// that value (RFC 9110 §8.6). (`URLSessionTransport`'s check is another change's.)
    @Suite struct CurlContentLengthTests {
        static func client(_ counter: AttemptCounter) async throws -> NetworkClient {
            let transport = try CurlTransport()
            return try loopbackClient(
                try await FaultServer.url(), transport: transport,
                behavior: CombinedBehavior([.retry(.default, clock: TestClock()), counter]), timeout: .seconds(5))
        }

        @Test func aListOfDifferentLengthsInOneFieldIsRefusedOnceNeverAShortBody() async throws {
            // libcurl reads "10, 4" as 10 (its number parser stops at the comma).
            let key = FaultServer.newKey("length-list")
            let counter = AttemptCounter()
            let client = try await Self.client(counter)
            let error = try await expectNetworkError {
                try await client.send(
                    NetworkRequest<Data>(path: "/malformed-header", query: Faults.query(key, ["kind": "length-list"])))
            }
            #expect(error?.kind == .transport(.other), "got \(String(describing: error))")
            #expect(error?.message.contains("conflicting Content-Length values (10, 4)") == true)
            #expect(error?.response == nil)
            #expect(counter.sent == 1)
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func aListOfOneLengthRepeatedIsThatLength() async throws {
            let key = FaultServer.newKey("length-list-same")
            let counter = AttemptCounter()
            let client = try await Self.client(counter)
            let response = try await client.response(
                for: NetworkRequest<Data>(
                    path: "/malformed-header", query: Faults.query(key, ["kind": "length-list-same"])))
            #expect(response.body == Data(#"{"a": 123}"#.utf8))
            #expect(counter.sent == 1)
        }
    }
}
