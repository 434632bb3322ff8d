// swift-format-ignore-file
import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

// StreamingAndTransfers.md's full-duplex sample, verbatim (indentation aside), run against a mock.
/// Answers each line the server sends with a line of its own, on the same request.
func chat(_ client: NetworkClient, reply: (Data) -> Data) async throws {
    let (answers, writer) = AsyncThrowingStream.makeStream(of: Data.self)
    var body = HTTPBody(once: answers)
    body.waitsOnResponse = true
    let streamed = try await client.stream(NetworkRequest<Data>(.post, path: "/chat", body: .stream(body)))
    for try await line in streamed {
        writer.yield(reply(line))
    }
    writer.finish()
}

// Its trailer-fields sample, verbatim.
struct UploadReceipt: Decodable, Sendable { let id: String }

/// Reads a checksum the server sends after the body, and sends one after an upload's body.
func exportAndUpload(_ client: NetworkClient, payload: Data, digest: String) async throws -> (String?, UploadReceipt) {
    let response = try await client.response(for: NetworkRequest<Data>(path: "/export"))
    let checksum = response.trailerFields?["X-Checksum"]
    var upload = HTTPBody.data(payload)
    upload.trailerFields = ["X-Checksum": digest]
    let receipt = try await client.send(NetworkRequest<UploadReceipt>(.put, path: "/files/1", body: .stream(upload)))
    return (checksum, receipt)
}

@Suite struct DuplexTrailerSamplesTests {
    @Test func theFullDuplexSampleRunsAgainstAMock() async throws {
        let mock = MockTransport().stub(.post, "/chat", .streamed([Data("hi\n".utf8)]))
        try await chat(try makeClient(transport: mock)) { line in line }
        #expect(mock.requests.first?.body.waitsOnResponse == true)
    }

    @Test func theTrailerSampleReadsAndSendsTrailerFields() async throws {
        let mock = MockTransport()
            .stub(.get, "/export", MockResponse.data(Data("e".utf8)).trailer("X-Checksum", "7"))
            .stub(.put, "/files/1", .json(#"{"id": "r1"}"#))
        let (checksum, receipt) = try await exportAndUpload(
            try makeClient(transport: mock), payload: Data("p".utf8), digest: "9")
        #expect(checksum == "7")
        #expect(receipt.id == "r1")
        #expect(mock.requests.last?.body.trailerFields?["X-Checksum"] == "9")
    }
}
