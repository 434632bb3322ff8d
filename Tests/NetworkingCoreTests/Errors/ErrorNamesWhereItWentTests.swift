import Foundation
import Networking
import NetworkingTesting
import NetworkingTestSupport
import Testing

/// A wrong base URL (another host, a path missing its `/v1`) answered by a `404` read like a missing resource:
/// `unacceptableStatus(404) for GET /profiles/42`. The description names where the request went: origin and path,
/// never a user, a password or a query value.
@Suite struct ErrorNamesWhereItWentTests {
    @Test(arguments: [
        ("https://api.example.com", "https://api.example.com/profiles/42"),
        ("https://api.example.com/v1", "https://api.example.com/v1/profiles/42"),
        ("http://127.0.0.1:8080/v1/", "http://127.0.0.1:8080/v1/profiles/42"),
    ])
    func aBare404NamesTheOriginAndPathItCameFrom(base: String, target: String) async throws {
        let client = NetworkClient(baseURL: URL(string: base)!, transport: answering(404))
        let error = try #require(
            try await expectNetworkError {
                try await client.send(
                    NetworkRequest<Data>(path: "/profiles/42?token=s3cr3t-value&page=2"))
            })
        #expect(error.description.hasPrefix("NetworkError.unacceptableStatus(404) for GET /profiles/42 at \(target): "))
        #expect(!error.description.contains("s3cr3t-value"))
        #expect(!error.description.contains("page=2"))
    }

    @Test func aTransportFailureAfterRetriesNamesTheOriginBeforeTheAttempts() async throws {
        let client = NetworkClient(
            configuration: .init(
                baseURL: URL(string: "https://wrong.example.com/v1")!,
                transport: MockTransport { _ in throw URLError(.cannotConnectToHost) },
                behavior: .retry(clock: TestClock())))
        let error = try #require(
            try await expectNetworkError { try await client.send(NetworkRequest<Data>(path: "/profiles/42")) })
        #expect(
            error.description.hasPrefix(
                "NetworkError.transport(cannotConnect) for GET /profiles/42 at https://wrong.example.com/v1/profiles/42"
                    + " after 3 attempts: "))
    }

    @Test func aRequestToAnAbsoluteURLIsNotNamedTwice() async throws {
        let client = NetworkClient(baseURL: nil, transport: answering(404))
        let error = try #require(
            try await expectNetworkError {
                try await client.send(NetworkRequest<Data>(url: URL(string: "https://api.example.com/a?q=1")!))
            })
        #expect(error.description.hasPrefix("NetworkError.unacceptableStatus(404) for GET https://api.example.com/a: "))
    }

    @Test func anErrorMadeWithoutARequestNamesNoTarget() {
        let error = NetworkError(.timedOut(.call), requestName: "GET /x", message: "the deadline passed")
        #expect(error.description == "NetworkError.timedOut(call) for GET /x: the deadline passed")
    }
}
