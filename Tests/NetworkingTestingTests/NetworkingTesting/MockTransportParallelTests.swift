import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct MockTransportParallelTests {
    @Test func hundredConcurrentMocksEachSeeOnlyTheirOwnRequests() async throws {
        // Given: 100 tasks, each with its own mock and client, as 100 parallel tests would have
        let outcomes = try await withThrowingTaskGroup(of: (Int, [String], User).self) { group in
            for index in 0..<100 {
                group.addTask {
                    let mock = MockTransport()
                        .stub(.get, "/users/\(index)", .success(User(id: index, name: "user\(index)")))
                    let client = try makeClient(transport: mock)
                    // When
                    let user = try await client.send(NetworkRequest<User>(path: "/users/\(index)"))
                    try await client.send(NetworkRequest<Void>(.get, path: "/users/\(index)"))
                    return (index, mock.recordedRequests.map(\.path), user)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        // Then
        #expect(outcomes.count == 100)
        for (index, paths, user) in outcomes {
            #expect(paths == ["/v1/users/\(index)", "/v1/users/\(index)"])
            #expect(user == User(id: index, name: "user\(index)"))
        }
    }

    @Test func oneMockSharedByConcurrentCallsRecordsEveryAttempt() async throws {
        let mock = MockTransport().stub(.get, "/n", .json("1"), .json("2"))
        let client = try makeClient(transport: mock)

        let values = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<50 { group.addTask { try await client.send(NetworkRequest<Int>(path: "/n")) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(mock.requestCount == 50)
        #expect(values.filter { $0 == 1 }.count == 1)
        #expect(values.filter { $0 == 2 }.count == 49)
    }
}
