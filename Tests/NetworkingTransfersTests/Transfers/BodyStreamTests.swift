import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

@Suite struct BodyStreamTests {
    static func chunks(_ pieces: [String]) -> HTTPBody.Chunks {
        AsyncThrowingStream { continuation in
            for piece in pieces { continuation.yield(Data(piece.utf8)) }
            continuation.finish()
        }
    }

    @Test func aRestartableStreamIsReplayableAndAOneTimeStreamIsNot() {
        let restartable = HTTPBody { Self.chunks(["a"]) }
        let once = HTTPBody(once: Self.chunks(["a"]))
        #expect(restartable.isReplayable)
        #expect(!once.isReplayable)
        #expect(once.data == nil)
        #expect(!once.isEmpty)
    }

    @Test func aOneTimeStreamIsNotRetriedAndTheRetryPolicySaysWhy() async throws {
        // Given a one-time stream and a PUT, which the default policy retries
        let transport = MockTransport().stub(.put, "/logs", .serviceUnavailable(), .success(["ok": true]))
        let client = NetworkClient(
            baseURL: URL(string: "https://api.example.com")!, transport: transport,
            behavior: .retry(.default, clock: TestClock()))
        // When
        let error = try await expectNetworkError {
            try await client.send(
                NetworkRequest<[String: Bool]>(
                    .put, path: "/logs", body: .stream(HTTPBody(once: Self.chunks(["x"])))))
        }
        // Then: one attempt, and the 503 is what the caller gets
        #expect(error?.kind == .unacceptableStatus(503))
        #expect(transport.requests.count == 1)
    }

    @Test func aRestartableStreamIsRetried() async throws {
        let transport = MockTransport().stub(.put, "/logs", .serviceUnavailable(), .success(["ok": true]))
        let client = NetworkClient(
            baseURL: URL(string: "https://api.example.com")!, transport: transport,
            behavior: .retry(.default, clock: TestClock()))
        let value = try await client.send(
            NetworkRequest<[String: Bool]>(.put, path: "/logs", body: .stream(HTTPBody { Self.chunks(["x"]) })))
        #expect(value == ["ok": true])
        #expect(transport.requests.count == 2)
        #expect(transport.requests.first?.headerFields[.contentType] == "application/octet-stream")
    }

    @Test func aConsumedOneTimeStreamIsRefusedBeforeAnyIO() async throws {
        let stream = HTTPBody(once: Self.chunks(["x"]))
        for try await _ in stream {}
        let transport = MockTransport().stub(.post, "/logs", .success(["ok": true]))
        let client = NetworkClient(baseURL: URL(string: "https://api.example.com")!, transport: transport)
        let error = try await expectNetworkError {
            try await client.send(NetworkRequest<[String: Bool]>(.post, path: "/logs", body: .stream(stream)))
        }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.contains("consumed by an earlier sending") == true)
        #expect(transport.requests.isEmpty)
    }
}
