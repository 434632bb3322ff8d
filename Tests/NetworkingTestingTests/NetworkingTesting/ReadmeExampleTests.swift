// swift-format-ignore-file
import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

/// The README's "Testing your API layer" example, kept here verbatim so it always compiles and passes.
@Suite struct ReadmeExampleTests {
    struct User: Codable, Equatable, Sendable { let id: Int; let name: String }

    @Test func retriesAfterA503AndSendsTheToken() async throws {
        let clock = TestClock()  // the client's clock: retry waits and log durations run on it, in virtual time
        let mock = MockTransport()
            .stub(.get, "/users/42", .serviceUnavailable(retryAfter: 1), .success(User(id: 42, name: "Ada")))
        let client = NetworkClient(
            configuration: .init(
                baseURL: URL(string: "https://api.example.com/v1")!, transport: mock,
                behavior: CombinedBehavior([.retry(), .authorization { "t0ken" }]), clock: clock))

        let user = try await client.send(NetworkRequest<User>(path: "/users/42"))

        #expect(user == User(id: 42, name: "Ada"))
        #expect(mock.recordedRequests.map(\.path) == ["/v1/users/42", "/v1/users/42"])
        #expect(mock.lastRequest?.header("Authorization") == "Bearer t0ken")
        #expect(clock.sleeps == [.seconds(1)])  // the Retry-After, waited in no time
    }
}
