import Foundation
import Networking
import NetworkingTesting
import Testing

@testable import NetworkingHTTP
import NetworkingTestSupport

/// Trailer fields and full-duplex bodies in the value model, and how the client keeps trailers, without a network.
@Suite struct HTTPBodyTrailerTests {
    @Test func anArrivingBodysTrailerFieldsAreThereOnceItHasBeenReadToItsEnd() async throws {
        let (body, continuation) = HTTPBody.makeStream()
        continuation.yield(Data("abc".utf8))
        continuation.finish(trailerFields: ["X-Checksum": "42"])
        #expect(body.trailerFields == nil)
        var iterator = body.makeAsyncIterator()
        #expect(try await iterator.next() == Data("abc".utf8))
        #expect(body.trailerFields == nil, "the reader has not reached the end")
        #expect(try await iterator.next() == nil)
        #expect(body.trailerFields?[HTTPField.Name("X-Checksum")] == "42")
    }

    @Test func aBodyThatFailedOrWasCancelledHasNoTrailerFields() async throws {
        let (failed, continuation) = HTTPBody.makeStream()
        continuation.finish(throwing: TransportError(.connectionLost, "cut"))
        _ = try? await failed.collect(upTo: 10)
        #expect(failed.trailerFields == nil)
        let (cancelled, other) = HTTPBody.makeStream()
        other.yield(Data("a".utf8))
        cancelled.cancel()
        other.finish(trailerFields: ["X-A": "1"])
        #expect(cancelled.trailerFields == nil)
    }

    @Test func trailerFieldsAndWaitingOnTheResponseAreSetOnABodyAndComparedWithIt() {
        var body = HTTPBody.data(Data("x".utf8))
        #expect(body.trailerFields == nil)
        #expect(!body.waitsOnResponse)
        body.trailerFields = ["X-A": "1"]
        #expect(body.trailerFields?[HTTPField.Name("x-a")] == "1")
        #expect(body != .data(Data("x".utf8)))
        var waiting = HTTPBody.data(Data("x".utf8))
        waiting.waitsOnResponse = true
        #expect(waiting != .data(Data("x".utf8)))
    }

    @Test func aTrailerFieldTheFieldsRefusedFailsTheCallBeforeAnyIO() async throws {
        let mock = MockTransport()
        let client = try makeClient(transport: mock)
        var body = HTTPBody.data(Data("x".utf8))
        body.trailerFields = ["X-Bad": "a\r\nInjected: 1"]
        let error = try await expectNetworkError {
            try await client.send(NetworkRequest<Data>(.post, path: "/up", body: .stream(body)))
        }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.contains("trailer fields") == true, "got \(String(describing: error))")
        #expect(mock.requests.isEmpty)
    }

    @Test func aTypedCallKeepsTheTrailerFieldsOfTheBodyItCollected() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/t", MockResponse.streamed([Data("ab".utf8), Data("c".utf8)]).trailer("X-Count", "3"))
        let client = try makeClient(transport: mock)
        let response = try await client.response(for: NetworkRequest<Data>(path: "/t"))
        #expect(response.body == Data("abc".utf8))
        #expect(response.trailerFields?[HTTPField.Name("X-Count")] == "3")
        #expect(response.map { $0.count }.trailerFields == response.trailerFields)
        mock.stub(.get, "/d", MockResponse.data(Data("d".utf8)).trailer("X-Count", "1"))
        let inMemory = try await client.response(for: NetworkRequest<Data>(path: "/d"))
        #expect(inMemory.trailerFields?[HTTPField.Name("X-Count")] == "1")
    }
}
