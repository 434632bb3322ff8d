import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

/// The README's "Testing your API layer" example, kept here verbatim so it always compiles and passes.
@Suite struct ReadmeExampleTests {
    @Test func retriesAfterA503AndSendsTheToken() async throws {
        let mock = MockTransport()
            .stub(.get, "/users/42", .serviceUnavailable(retryAfter: 1), .success(User(id: 42, name: "Ada")))
        let client = NetworkClient(
            configuration: .init(
                baseURL: URL(string: "https://api.example.com/v1")!, transport: mock,
                behavior: CombinedBehavior([.retry(clock: TestClock()), .authorization { "t0ken" }])))

        let user = try await client.send(NetworkRequest<User>(path: "/users/42"))

        #expect(user == User(id: 42, name: "Ada"))
        #expect(mock.recordedRequests.map(\.path) == ["/v1/users/42", "/v1/users/42"])
        #expect(mock.lastRequest?.header("Authorization") == "Bearer t0ken")
    }
}
